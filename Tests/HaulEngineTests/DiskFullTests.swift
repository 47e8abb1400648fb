import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Downloading into a small file system that fills up (a tmpfs the test mounts; needs root).
final class DiskFullTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!
    var small: String!

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(getuid() == 0, "mounting a small file system needs root (CI runs as root)")
        www = dir.subdirectory("www")
        small = dir.subdirectory("small")
        let mount = try await ChildProcess.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", small], environment: [:], in: dir.path)
        XCTAssertEqual(mount.status, 0, mount.stderr)
        nginx = try await NginxServer(root: www, slowRate: "2m", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        for engine in engines { await engine.shutdown() }
        engines = []
        if let small { _ = try? await ChildProcess.run("/bin/umount", ["-l", small], environment: [:], in: "/tmp") }
        try await super.tearDown()
    }

    func free() -> Int64 {
        var info = statvfs()
        statvfs(small, &info)
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    func testDiskFullPausesWithTheShortfallKeepsTheDataAndResumesWhenSpaceIsFreed() async throws {
        try TestFiles.random(www + "/big.bin", size: 5_000_000)
        try TestFiles.random(www + "/other.bin", size: 1_000_000)
        let engine = try makeEngine { $0.diskRecheckInterval = .seconds(0.2) }
        let big = try await engine.perform(
            .add([DownloadRequest(url: nginx.url("slow/big.bin"), directory: small, connections: 1)]))[0]
        let other = try await engine.perform(
            .add([DownloadRequest(url: nginx.url("slow/other.bin"), directory: downloadDirectory)]))[0]
        await engine.start()
        try await waitFor(engine, big) { $0.receivedBytes > 500_000 }

        // Fill the file system behind the running download's back.
        let filler = small + "/filler"
        TestFiles.fillFileSystem(filler)
        let paused = try await waitFor(engine, big, timeout: 10) { $0.state.isPaused }
        XCTAssertEqual(paused.pauseCause?.kind, .diskFull)
        XCTAssertTrue(paused.reason?.hasPrefix("disk full — needs ") ?? false, paused.reason ?? "")
        XCTAssertTrue(paused.reason?.hasSuffix(" more") ?? false, paused.reason ?? "")
        let part = try XCTUnwrap(TestFiles.contents(paused.partPath!))
        let source = try XCTUnwrap(TestFiles.contents(www + "/big.bin"))
        XCTAssertGreaterThan(part.count, 500_000)
        XCTAssertEqual(part, source.prefix(part.count), "what was written is intact")

        let unharmed = try await finished(engine, other)
        XCTAssertEqual(unharmed.state, .finished)
        assertSameContents(unharmed.path!, www + "/other.bin")

        try FileManager.default.removeItem(atPath: filler)
        let done = try await finished(engine, big)
        XCTAssertEqual(done.state, .finished)
        assertSameContents(done.path!, www + "/big.bin")
        XCTAssertFalse(FileManager.default.fileExists(atPath: done.partPath!))
        Figures.record(
            "Disk full", "an 8 MiB tmpfs filled mid-transfer; a 20 MB file into it",
            "paused with \"disk full — needs N more\", written bytes intact, other download unharmed, completed "
                + "once space was freed; free space checked before starting"
        )
    }

    func testFreeSpaceIsCheckedBeforeStartingWhenTheSizeIsKnown() async throws {
        try TestFiles.random(www + "/huge.bin", size: 20_000_000)
        let engine = try makeEngine()
        let id = try await engine.perform(.add([DownloadRequest(url: nginx.url("huge.bin"), directory: small)]))[0]
        await engine.start()
        let d = try await waitFor(engine, id) { $0.state.isPaused }
        XCTAssertEqual(d.pauseCause?.kind, .diskFull)
        XCTAssertEqual(d.receivedBytes, 0, "nothing was written")
        let shortfall = try XCTUnwrap(d.diskShortfall)
        XCTAssertEqual(Double(shortfall), Double(20_000_000 - free()), accuracy: 100_000)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: small), [], "not even an empty .part")
    }
}
