import Foundation
import HaulCore
import XCTest

@testable import HaulStore

/// The settings are written byte for byte as `JSONEncoder` writes them, and read as
/// `JSONDecoder` reads them whatever the file holds (odd forms going to Foundation).
final class SettingsJSONTests: XCTestCase {
    private typealias Settings = StateDocument.Settings

    func testWrittenAsJSONEncoderWritesThem() throws {
        for concurrency in [1, 3, 16, 1000] {
            for mode in MeteredMode.allCases {
                for limit in [nil, 0, 16384, Int64.max] as [Int64?] {
                    let settings = Settings(concurrency: concurrency, meteredMode: mode, meteredLimit: limit)
                    var fast: [UInt8] = []
                    SettingsJSON.write(settings, into: &fast)
                    XCTAssertEqual(
                        String(decoding: fast, as: UTF8.self),
                        String(decoding: try StateCoding.encoder().encode(settings), as: UTF8.self))
                }
            }
        }
    }

    func testEveryFormReadsAsFoundationReadsIt() throws {
        let forms = [
            #"{"concurrency":4,"meteredMode":"auto"}"#, #"{"concurrency":2,"meteredLimit":65536,"meteredMode":"on"}"#,
            #"{}"#, #"{ "meteredMode" : "off" , "concurrency" : 8 }"#, #"{"concurrency":0,"meteredMode":"off"}"#,
            #"{"concurrency":-5,"meteredMode":"off"}"#, #"{"concurrency":"7","meteredMode":"off"}"#,
            #"{"concurrency":2.5,"meteredMode":"on"}"#, #"{"concurrency":3,"meteredMode":"sometimes"}"#,
            #"{"concurrency":3,"meteredMode":null}"#, #"{"meteredLimit":null,"meteredMode":"on"}"#,
            #"{"meteredLimit":"lots"}"#, #"{"meteredLimit":1e3}"#, #"{"concurrency":3,"speed":"fast"}"#,
            #"{"concurrency":1,"concurrency":9}"#, #"{"concurrenc\u0079":6}"#, #"{"concurrency":99999999999999999999}"#,
        ]
        for form in forms {
            let foundation = try StateCoding.decoder().decode(Settings.self, from: Data(form.utf8))
            let document = #"{"version":1,"settings":\#(form),"downloads":[]}"#
            let fast = try StateJSONReader.decode(Data(document.utf8))
            XCTAssertEqual(fast.document.settings, foundation, form)
        }
    }

    func testOnlyThePlainFormsAreReadWithoutFoundation() throws {
        func read(_ text: String) -> Settings? {
            Array(text.utf8).withUnsafeBufferPointer { try? SettingsJSON.read($0) }
        }
        XCTAssertEqual(
            read(#"{"concurrency":4,"meteredLimit":null,"meteredMode":"auto"}"#),
            Settings(concurrency: 4, meteredMode: .auto))
        XCTAssertEqual(read(#"{"concurrency":0}"#), Settings(concurrency: 1))
        for odd in [
            #"{"concurrency":"4"}"#, #"{"meteredMode":"sometimes"}"#, #"{"concurrency":1,"concurrency":2}"#,
            #"{"speed":1}"#, #"{"concurrency":2.5}"#,
        ] {
            XCTAssertNil(read(odd), odd)
        }
    }
}

/// The RPC endpoint's settings (with its secret) survive the state file, in both readers.
final class RPCSettingsJSONTests: XCTestCase {
    func testTheEndpointsSettingsRoundTrip() throws {
        var settings = StateDocument.Settings(concurrency: 3, meteredMode: .off)
        settings.rpc = RPCSettings(
            port: 16800, listen: "0.0.0.0", secret: "s3cret", allowedDirectories: ["/srv/media"],
            globalOptions: ["split": "4", "dir": "/srv/media/in"])
        var fast: [UInt8] = []
        SettingsJSON.write(settings, into: &fast)
        XCTAssertEqual(
            String(decoding: fast, as: UTF8.self),
            String(decoding: try StateCoding.encoder().encode(settings), as: UTF8.self))
        let document = #"{"version":1,"settings":\#(String(decoding: fast, as: UTF8.self)),"downloads":[]}"#
        XCTAssertEqual(try StateJSONReader.decode(Data(document.utf8)).document.settings.rpc, settings.rpc)
        let minimal = #"{"version":1,"settings":{"rpc":{"secret":"x"}},"downloads":[]}"#
        XCTAssertEqual(try StateJSONReader.decode(Data(minimal.utf8)).document.settings.rpc, RPCSettings(secret: "x"))
    }
}
