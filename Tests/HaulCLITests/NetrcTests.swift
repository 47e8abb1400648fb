import Foundation
import HaulTestSupport
import XCTest

/// Logins from `~/.netrc` go to the host the user named, and nowhere else.
final class NetrcTests: CLITestCase {
    var origin: NginxServer!
    var elsewhere: NginxServer!
    var www: String!

    override func setUp() async throws {
        try await super.setUp()
        let www = dir.subdirectory("www")
        self.www = www
        try TestFiles.random(www + "/file.bin", size: 300_000)
        try "u:{PLAIN}p@ss w%41\n".write(toFile: dir.path + "/htpasswd", atomically: true, encoding: .utf8)
        let privateLocation = """
            location /private/ { alias \(www)/; auth_basic "haul"; auth_basic_user_file \(dir.path)/htpasswd; }
            """
        // Another host (another address on loopback) that asks for the same login.
        elsewhere = try await NginxServer(
            root: www, workDirectory: dir.subdirectory("elsewhere"), serverLines: { _ in privateLocation })
        let away = elsewhere.url("private/file.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        origin = try await NginxServer(
            root: www, workDirectory: dir.subdirectory("origin"),
            serverLines: { _ in privateLocation + " location /away { return 302 \(away); }" })
    }

    override func tearDown() async throws {
        await origin?.stop()
        await elsewhere?.stop()
        try await super.tearDown()
    }

    func writeNetrc(mode: mode_t) throws {
        let netrc = home + "/.netrc"
        try """
        # a comment line is just more tokens for netrc; keep the file plain
        machine 127.0.0.1 login u password "p@ss w%41"
        machine localhost login u password "p@ss w%41"
        default login nobody password nothing
        """.write(toFile: netrc, atomically: true, encoding: .utf8)
        chmod(netrc, mode)
    }

    func testTheNamedHostGetsTheLoginARedirectElsewhereDoesNot() async throws {
        try writeNetrc(mode: 0o600)
        var add = try await haul("add", origin.url("private/file.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        var run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(sameFile(www + "/file.bin", downloads + "/file.bin"))
        XCTAssertTrue(origin.credentialsLog().contains { $0.hasPrefix("/private/file.bin|Basic ") })
        // The password is kept from view like any in a URL.
        let listed = try await haul("ls")
        XCTAssertFalse(listed.stdout.contains("p@ss") || listed.stdout.contains("w%41"), listed.stdout)

        // Redirected to another host, which asks for a login: it gets none, and the download fails.
        add = try await haul("add", "-o", "away.bin", origin.url("away"))
        XCTAssertEqual(add.status, 0, add.stderr)
        run = try await haul("run")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertFalse(elsewhere.credentialsLog().isEmpty)
        XCTAssertTrue(elsewhere.credentialsLog().allSatisfy { $0.contains("|-|") }, "\(elsewhere.credentialsLog())")
    }

    /// curl's `-u USER:PASSWORD`, wget's `--user` and `--password`: the same rule as a netrc login.
    func testALoginOnTheCommandLineGoesToTheNamedHostOnly() async throws {
        let got = try await haul("-u", "u:p@ss w%41", "-d", downloads, origin.url("private/file.bin"))
        XCTAssertEqual(got.status, 0, got.stdout + got.stderr)
        XCTAssertTrue(sameFile(www + "/file.bin", downloads + "/file.bin"))
        XCTAssertTrue(origin.credentialsLog().contains { $0.hasPrefix("/private/file.bin|Basic ") })
        XCTAssertFalse(got.stdout.contains("p@ss") || got.stdout.contains("w%41"), got.stdout)

        // Redirected to another host, which asks for a login: it gets none, and the download fails.
        let add = try await haul("add", "--user", "u", "--password", "p@ss w%41", "-o", "away.bin", origin.url("away"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertFalse(elsewhere.credentialsLog().isEmpty)
        XCTAssertTrue(elsewhere.credentialsLog().allSatisfy { $0.contains("|-|") }, "\(elsewhere.credentialsLog())")

        // aria2's options in an input file (as its RPC takes them): the same login.
        try "\(origin.url("private/file.bin?list"))\n  http-user=u\n  http-passwd=p@ss w%41\n  out=listed.bin\n"
            .write(toFile: dir.path + "/list.txt", atomically: true, encoding: .utf8)
        let listed = try await haul("-i", dir.path + "/list.txt", "-d", downloads)
        XCTAssertEqual(listed.status, 0, listed.stdout + listed.stderr)
        XCTAssertTrue(sameFile(www + "/file.bin", downloads + "/listed.bin"))

        let half = try await haul("add", "-u", "u", origin.url("private/file.bin"))
        XCTAssertEqual(half.status, 64, half.stderr)
        XCTAssertTrue(half.stderr.contains("give the password too: -u USER:PASSWORD"), half.stderr)
    }

    func testANetrcOthersCanReadIsRefusedWithOneLine() async throws {
        try writeNetrc(mode: 0o644)
        let add = try await haul("add", origin.url("private/file.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(
            add.stderr.contains(".netrc is not used: other users can read it (mode 0644); chmod 600"), add.stderr)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 1, "no login, so 401: " + run.stderr)
        XCTAssertTrue(origin.credentialsLog().allSatisfy { $0.contains("|-|") }, "\(origin.credentialsLog())")

        let missing = try await haul("add", "--netrc-file", "nope", origin.url("private/file.bin"))
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("there is no netrc file"), missing.stderr)
    }
}
