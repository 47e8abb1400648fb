import Foundation
import HaulTestSupport
import XCTest

/// Lists of many small files from one server, as the list tests make and fetch them.
extension CLITestCase {
    /// Writes `count` files of random bytes into `folder`, file `i` of `size(i)` bytes, named
    /// `f<i>.bin`; returns their names in order.
    func makeSmallFiles(_ count: Int, in folder: String, size: (Int) -> Int) -> [String] {
        let sizes = (0..<count).map(size)
        let random = Data(TestFiles.randomBytes(sizes.reduce(0, +)))
        var names: [String] = []
        var offset = 0
        for (i, length) in sizes.enumerated() {
            let name = "f\(i).bin"
            let bytes = random[offset..<(offset + length)]
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: bytes))
            names.append(name)
            offset += length
        }
        return names
    }

    /// Adds `urls` with `haul add -i` into the download folder; fails unless it was taken.
    func addList(_ urls: [String]) async throws {
        let list = dir.path + "/list.txt"
        try urls.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let added = try await haul("add", "-i", list, "-d", downloads)
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    /// Runs the queue `jobs` at a time and checks that each of `names` arrived identical to the
    /// file of that name in `source`.
    func runAndCompare(_ names: [String], from source: String, jobs: Int, env: [String: String] = [:]) async throws {
        let run = try await haul("run", "-j", String(jobs), env: env)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("done: \(names.count) finished"), run.stdout)
        for name in names where !sameFile(downloads + "/" + name, source + "/" + name) {
            XCTFail("\(name) differs")
        }
    }
}
