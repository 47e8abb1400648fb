import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulStore

/// Valid state files damaged at random: loading never crashes, and the original bytes are
/// always kept somewhere unless they loaded cleanly.
final class StateFileFuzzTests: XCTestCase {
    func testRandomDamageIsAlwaysHandled() throws {
        var rng = SeededGenerator.fromEnvironment("StateFileFuzzTests")
        let downloads = (0..<20).map { i -> Download in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/d",
                queueOrder: UInt64(i))
            d.fileName = "f\(i)"
            d.totalBytes = Int64(i * 100)
            return d
        }
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        try StateFile(path: path).save(StateDocument(downloads: downloads))
        let valid = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let cases = 2_000
        var clean = 0
        var recovered = 0
        var refused = 0
        for _ in 0..<cases {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
                case 1 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 2:
                    bytes.insert(
                        Array("{}[],:\"0-9.ea\u{0}".utf8).randomElement(using: &rng)!,
                        at: Int.random(in: 0...bytes.count, using: &rng))
                default: if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng)) }
                }
            }
            for item in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
                try FileManager.default.removeItem(atPath: dir.path + "/" + item)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let loaded = try StateFile(path: path).load(now: Date())
                if loaded.recoveryMessage == nil {
                    clean += 1
                } else {
                    recovered += 1
                    let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                        $0.contains(".corrupt-")
                    }
                    XCTAssertEqual(kept.count, 1)
                    XCTAssertEqual(
                        try Data(contentsOf: URL(fileURLWithPath: dir.path + "/" + kept[0])), Data(bytes),
                        "the damaged original is kept byte for byte")
                }
            } catch {
                refused += 1
                XCTAssertEqual(
                    try Data(contentsOf: URL(fileURLWithPath: path)), Data(bytes),
                    "a refused file is left untouched: \(error)")
            }
        }
        Figures.record(
            "State file damage (fuzz)", "\(cases) randomly truncated, flipped and spliced files",
            "\(clean) read cleanly, \(recovered) recovered with the original kept aside, \(refused) refused "
                + "untouched; 0 crashes"
        )
    }
}
