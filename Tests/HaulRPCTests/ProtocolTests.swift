import Foundation
import HaulAria2Wire
import XCTest

@testable import HaulRPC

/// The JSON-RPC envelope, the secret and the directory rule, without a server.
final class ProtocolTests: XCTestCase {
    private func read(_ text: String) -> RPCEnvelope.Request? { RPCEnvelope.read(Array(text.utf8)) }

    func testReadsOneCallABatchAndWhatIsNotACall() throws {
        guard case .single(.call(let call))? = read(#"{"jsonrpc":"2.0","id":"7","method":"aria2.tellActive"}"#) else {
            return XCTFail("one call")
        }
        XCTAssertEqual(call.method, "aria2.tellActive")
        XCTAssertEqual(call.params, [])
        XCTAssertEqual(call.id, .string("7"))
        guard
            case .batch(let entries)? = read(
                #"[{"id":1,"method":"a"},{"method":"b"},{"id":2,"method":"c","params":5}]"#)
        else { return XCTFail("a batch") }
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[1], .invalid(.invalidRequest, id: .null), "no id")
        XCTAssertEqual(entries[2], .invalid(.invalidParams, id: .int(2)), "params not a list")
        XCTAssertNil(read("{not json"))
    }

    func testTheTokenComesOffTheFrontOnlyWhenItIsOne() {
        var call = RPCCall(method: "m", params: [.string("token:abc"), .int(1)], id: .null)
        XCTAssertEqual(call.takeToken(), "abc")
        XCTAssertEqual(call.params, [.int(1)])
        var none = RPCCall(method: "m", params: [.string("0000000000a1b2c3")], id: .null)
        XCTAssertNil(none.takeToken())
        XCTAssertEqual(none.params.count, 1)
    }

    func testRepliesAndNotificationsReadAsAria2WritesThem() {
        let ok = RPCEnvelope.reply(id: .string("x"), .success(.string("OK")))
        XCTAssertEqual(String(decoding: ok.bytes, as: UTF8.self), #"{"id":"x","jsonrpc":"2.0","result":"OK"}"#)
        let failed = RPCEnvelope.reply(id: .int(3), .failure(.unauthorized))
        XCTAssertEqual(
            String(decoding: failed.bytes, as: UTF8.self),
            #"{"id":3,"jsonrpc":"2.0","error":{"code":1,"message":"Unauthorized"}}"#)
        let note = RPCEnvelope.notification(Aria2Notification.complete, gid: "0000000000a1b2c3")
        XCTAssertEqual(
            String(decoding: note.bytes, as: UTF8.self),
            #"{"jsonrpc":"2.0","method":"aria2.onDownloadComplete","params":[{"gid":"0000000000a1b2c3"}]}"#)
    }

    func testTheSecretMustMatchWhole() {
        XCTAssertTrue(SecretCheck.matches("s3cret", "s3cret"))
        XCTAssertFalse(SecretCheck.matches("s3cre", "s3cret"))
        XCTAssertFalse(SecretCheck.matches("s3cret!", "s3cret"))
        XCTAssertFalse(SecretCheck.matches("", "s3cret"))
    }

    func testADirectoryMustLieUnderAnAllowedRootAfterDotsAndLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("haul-dir-rule-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root + "/dl/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try? FileManager.default.createSymbolicLink(atPath: root + "/dl/escape", withDestinationPath: "/etc")
        let roots = [root + "/dl"]
        XCTAssertTrue(DirectoryRule.allows(root + "/dl", roots: roots))
        XCTAssertTrue(DirectoryRule.allows(root + "/dl/sub", roots: roots))
        XCTAssertTrue(DirectoryRule.allows(root + "/dl/new/deeper", roots: roots), "not made yet")
        XCTAssertFalse(DirectoryRule.allows(root + "/dl/../elsewhere", roots: roots))
        XCTAssertFalse(DirectoryRule.allows(root + "/dl-other", roots: roots), "a name that only starts alike")
        XCTAssertFalse(DirectoryRule.allows(root + "/dl/escape", roots: roots), "a link out")
        XCTAssertFalse(DirectoryRule.allows(root + "/dl/escape/ssh", roots: roots))
    }
}
