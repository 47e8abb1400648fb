import Foundation
import HaulTestSupport
import XCTest

/// 10,000 files of 1 KiB from one host through `haul add -i` and `haul run`, killed with SIGKILL
/// part way: the state file still lists every download, each one it calls finished is on disk
/// and identical, and the run started again ends with every file identical, once.
final class TenThousandFilesTests: CLITestCase {
    let count = 10_000
    var nginx: NginxServer?

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    /// The names of the files in the download folder, without `.part`s.
    func finishedNames() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []
        return Set(names.filter { !$0.hasSuffix(".part") })
    }

    func testAKillInTheMiddleLeavesAConsistentStateAndTheRerunEndsWithEveryFileOnce() async throws {
        let www = dir.subdirectory("www")
        let names = makeSmallFiles(count, in: www) { _ in 1024 }
        let nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
        self.nginx = nginx
        try await addList(names.map { nginx.url($0) })

        // Killed once a fifth of the files are in place.
        let run = try spawnHaul(["run", "-j", "16"], log: dir.path + "/run.log")
        try await waitUntil(timeout: 120) { finishedNames().count >= count / 5 }
        run.signal(SIGKILL)
        _ = await run.wait()

        let listed = try await listJSON()
        XCTAssertEqual(listed.count, count, "the state file parses and lists every download")
        let finished = listed.filter { $0["state"] as? String == "finished" }
        XCTAssertGreaterThan(finished.count, 0)
        XCTAssertLessThan(finished.count, count, "the kill came in the middle")
        for download in finished {
            let path = try XCTUnwrap(download["path"] as? String, "\(download)")
            let name = (path as NSString).lastPathComponent
            XCTAssertTrue(sameFile(path, www + "/" + name), "\(name) is called finished but is not identical")
        }

        let rerun = try await haul("run", "-j", "16", timeout: 300)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(finishedNames(), Set(names), "every file once, under its own name, and no .part left")
        for name in names where !sameFile(downloads + "/" + name, www + "/" + name) {
            XCTFail("\(name) differs")
        }
        let states = try await listJSON().map { $0["state"] as? String ?? "" }
        XCTAssertEqual(states.filter { $0 == "finished" }.count, count)
        Figures.record(
            "A list of 10,000 small files killed",
            "`kill -9` of `haul run -j 16` once a fifth of 10,000 files of 1 KiB were in place "
                + "(\(finished.count) finished in the state), then run again",
            "state readable and complete; every file it called finished identical; after the rerun "
                + "all 10,000 identical, each once, no `.part` left"
        )
    }
}
