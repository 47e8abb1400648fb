import Foundation
import XCTest

@testable import HaulAria2Wire
@testable import HaulRPC

/// Request bodies read in one pass give the values Foundation reads, and what the pass does not
/// take still reads.
final class JSONValueParseTests: XCTestCase {
    func testTheOnePassReaderReadsWhatFoundationReads() throws {
        let body = #"""
            {"jsonrpc":"2.0","id":"q\u00e9\ud83c\udf89","method":"system.multicall","params":[[
             {"methodName":"aria2.addUri","params":["token:s",["http://h/a b"],{"pause":"true","split":5}]},
             {"methodName":"aria2.tellStatus","params":["token:s","0000000000abcdef",["gid","status"]]}],
             -12, 3.5, 1e3, true, false, null, "tab\tline\nquote\"", []]}
            """#
        let value = try XCTUnwrap(JSONValue.parse(Array(body.utf8)))
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
        XCTAssertEqual(value["id"], foundation["id"])
        XCTAssertEqual(value["params"], foundation["params"])
        XCTAssertEqual(value["id"]?.string, "qé🎉")
        XCTAssertEqual(value["params"]?.array?[1], .int(-12))
        XCTAssertEqual(value["params"]?.array?[2], .double(3.5))
        XCTAssertEqual(value["params"]?.array?[3], .int(1000), "a whole number is an integer, as Foundation reads it")
    }

    func testBrokenAndDeepBodiesAreRefusedOrLeftToFoundation() {
        XCTAssertNil(JSONValue.parse(Array(#"{"id":1,"method":"x""#.utf8)), "cut short")
        XCTAssertNil(JSONValue.parse(Array(#"{"id":1} trailing"#.utf8)))
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertNotNil(JSONValue.parse(Array(deep.utf8)), "deeper than one pass goes: Foundation reads it")
        let hostile = String(repeating: "[", count: 100_000)
        XCTAssertNil(JSONValue.parse(Array(hostile.utf8)), "no stack is overrun")
    }
}
