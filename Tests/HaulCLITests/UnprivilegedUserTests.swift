import Foundation
import HaulTestSupport
import XCTest

/// haul as an ordinary user runs it. CI and this machine run the suite as root, which hides
/// whatever needs a privilege: a socket option only root may set once made every plain
/// `http://` download fail for everyone else ("cannot connect … Permission denied").
extension CommandLineTests {
    func testAnOrdinaryUserDownloadsOverPlainHTTP() async throws {
        try TestFiles.random(www + "/a.bin", size: 200_000)
        try TestFiles.random(www + "/b.bin", size: 3_000)
        let add = try await haulAsNobody("add", nginx.url("a.bin"), nginx.url("b.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let run = try await haulAsNobody("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/a.bin", www + "/a.bin"), run.stdout)
        XCTAssertTrue(sameFile(downloads + "/b.bin", www + "/b.bin"), run.stdout)
    }

    /// Runs haul as `nobody` when the suite runs as root (the home is handed to that user
    /// first), else as the current, already unprivileged, user.
    private func haulAsNobody(_ arguments: String...) async throws -> CommandResult {
        guard geteuid() == 0 else {
            return try await ChildProcess.run(
                HaulBinary.path, arguments, environment: environment(), in: dir.path, timeout: 120)
        }
        let nobody = try XCTUnwrap(getpwnam("nobody")?.pointee)
        for path in [home, downloads, dir.subdirectory("state")] {
            XCTAssertEqual(chown(path, nobody.pw_uid, nobody.pw_gid), 0, path)
        }
        let privileges = [
            "--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all",
        ]
        return try await ChildProcess.run(
            "/usr/bin/setpriv", privileges + [HaulBinary.path] + arguments, environment: environment(), in: dir.path,
            timeout: 120)
    }
}
