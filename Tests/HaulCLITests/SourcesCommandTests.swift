import Foundation
import HaulLoopback
import HaulTestSupport
import Synchronization
import XCTest

/// The sources and integrity commands as users run them: checksum files and `haul verify`,
/// aria2 input files, new folders, `add --start`, `haul refresh` of an expired link, `haul cookies`.
final class SourcesCommandTests: NginxCLITestCase {

    func shell(_ command: String) async throws -> String {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "cd '\(www!)' && " + command], environment: ["PATH": "/bin:/usr/bin"], in: www)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func testAChecksumFileChecksEachDownloadAgainstItsLineAndVerifyChecksAgain() async throws {
        for name in ["a.bin", "b c.bin", "d.bin"] { try TestFiles.random(www + "/" + name, size: 200_000) }
        _ = try await shell("sha256sum a.bin 'b c.bin' d.bin > SHA256SUMS && head -c 10 /dev/zero >> d.bin")
        let sums = www + "/SHA256SUMS"

        let missing = try await haul("add", "--checksum-file", sums, nginx.url("e.bin"))
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "haul: the checksum file has no line for 'e.bin'\n")

        let add = try await haul(
            "add", "--checksum-file", sums, nginx.url("a.bin"), nginx.url("b%20c.bin"), nginx.url("d.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 1, "the changed file fails: " + run.stdout)
        let list = try await listJSON()
        XCTAssertEqual(list.map { $0["state"] as? String }, ["finished", "finished", "failed"])
        guard list.count == 3 else { return }
        XCTAssertTrue((list[0]["checksum"] as? String)?.hasPrefix("sha-256=") ?? false)
        XCTAssertTrue(
            (list[2]["reason"] as? String)?.hasPrefix("SHA-256 checksum mismatch: expected ") ?? false,
            "\(list[2]["reason"] ?? "")")
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/d.bin"), "no bad bytes under the name")

        let verified = try await haul("verify")
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertEqual(verified.stdout.components(separatedBy: "SHA-256 OK").count - 1, 2, verified.stdout)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: downloads + "/a.bin"))
        let id = try XCTUnwrap(list[0]["id"] as? String)
        let caught = try await haul("verify", id)
        XCTAssertEqual(caught.status, 1)
        XCTAssertTrue(caught.stdout.contains("a.bin  SHA-256 MISMATCH: expected "), caught.stdout)
        let renamed = try await haul("add", "--checksum-file", sums, "-o", "renamed.bin", nginx.url("a.bin"))
        XCTAssertEqual(renamed.status, 0, "saved under another name, found by the server's: " + renamed.stderr)
        // A list's `out=` with folders is found by its name without them.
        let folders = dir.path + "/with-folders.txt"
        try "\(nginx.url("e.bin"))\n  out=copies/b c.bin\n".write(toFile: folders, atomically: true, encoding: .utf8)
        let nested = try await haul("add", "--paused", "--checksum-file", sums, "-i", folders)
        XCTAssertEqual(nested.status, 0, "found by 'b c.bin': " + nested.stderr)
    }

    func testChecksumsOfEveryTypeOnTheCommandLine() async throws {
        try TestFiles.random(www + "/x.bin", size: 100_000)
        var ids: [String] = []
        for (tool, name) in [("md5sum", "md5"), ("sha1sum", "sha1"), ("sha224sum", "sha-224"), ("sha384sum", "SHA384")]
        {
            let hex = String(try await shell("\(tool) x.bin").prefix { $0 != " " })
            let add = try await haul("add", "--checksum", "\(name)=\(hex)", "-o", "\(tool).bin", nginx.url("x.bin"))
            XCTAssertEqual(add.status, 0, add.stderr)
            ids.append(String(add.stdout.prefix(6)))
        }
        let bad = try await haul("add", "--checksum", "sha-512=abc", nginx.url("x.bin"))
        XCTAssertEqual(bad.stderr, "haul: a SHA-512 checksum is 128 hexadecimal digits\n")
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let verified = try await haul(["verify"] + ids)
        XCTAssertEqual(verified.status, 0, verified.stdout)
        for name in ["MD5", "SHA-1", "SHA-224", "SHA-384"] {
            XCTAssertTrue(verified.stdout.contains("\(name) OK"), verified.stdout)
        }
    }

    func testAria2InputFilesHonourTheirOptionsAndNameTheOthersOnce() async throws {
        try TestFiles.random(www + "/a.bin", size: 300_000)
        try TestFiles.random(www + "/b.bin", size: 1000)
        let sha1 = String(try await shell("sha1sum a.bin").prefix(40))
        let input = dir.path + "/aria2.txt"
        try """
        # an aria2 input file
        \(nginx.url("a.bin"))
          dir=\(dir.path)/isos/new/deep
          out=renamed.bin
          checksum=sha-1=\(sha1)
          header=X-Test: yes
          header=X-Other: two
          split=2
          max-connection-per-server=4
          gid=0123456789abcdef
          pause-metadata=true
        \(nginx.url("b.bin"))\t\(nginx.url("mirror/b.bin"))
          gid=fedcba9876543210
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let add = try await haul("add", "-i", input)
        XCTAssertEqual(add.status, 0, add.stderr)
        let warnings = add.stderr.split(separator: "\n").filter { $0.contains("warning") }
        XCTAssertEqual(
            warnings.first.map(String.init),
            "haul: warning: \(input): haul does not use the aria2 option(s) gid=, pause-metadata=; the downloads are "
                + "added without")
        XCTAssertEqual(warnings.count, 1, "a line's TAB-separated URLs are mirrors of its file: " + add.stderr)

        let state = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        let stored = try XCTUnwrap(state["downloads"] as? [[String: Any]])
        XCTAssertEqual(stored[0]["directory"] as? String, dir.path + "/isos/new/deep")
        XCTAssertEqual(stored[0]["requestedName"] as? String, "renamed.bin")
        XCTAssertEqual(stored[0]["connections"] as? Int, 2, "the fewer of split and max-connection-per-server")
        XCTAssertEqual(stored[0]["checksum"] as? String, "sha-1=\(sha1)")
        let headers = try XCTUnwrap(stored[0]["headers"] as? [[String: String]])
        XCTAssertEqual(headers.map { $0["name"] ?? "" }, ["X-Test", "X-Other"])
        XCTAssertEqual(stored[1]["directory"] as? String, downloads)
        let mirrors = try XCTUnwrap(stored[1]["sources"] as? [[String: Any]])
        XCTAssertEqual(mirrors.map { $0["url"] as? String }, [nginx.url("mirror/b.bin")])

        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(dir.path + "/isos/new/deep/renamed.bin", www + "/a.bin"))
        XCTAssertTrue(sameFile(downloads + "/b.bin", www + "/b.bin"))

        try "\(nginx.url("a.bin"))\n  split=64\n".write(toFile: input, atomically: true, encoding: .utf8)
        let bad = try await haul("add", "-i", input)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "haul: line 2, split=: haul uses 1 to 32 connections per file\n")
    }

    /// Links as they are pasted from chats and documents: raw non-ASCII beside a valid escape, raw
    /// spaces. Each is fetched from the file it names, which keeps its decoded name.
    func testPastedURLsAreEncodedOnceAndTheFileKeepsItsName() async throws {
        try TestFiles.random(www + "/naïve file.bin", size: 50_000)
        try TestFiles.random(www + "/report 2026 (final).pdf", size: 40_000)
        let add = try await haul(
            "add", nginx.url("") + "naïve%20file.bin", nginx.url("") + "report 2026 (final).pdf", "--start")
        XCTAssertEqual(add.status, 0, add.stderr)
        try await waitUntil {
            self.sameFile(self.www + "/naïve file.bin", self.downloads + "/naïve file.bin")
                && self.sameFile(self.www + "/report 2026 (final).pdf", self.downloads + "/report 2026 (final).pdf")
        }
        let urls = try await listJSON().compactMap { $0["url"] as? String }
        XCTAssertEqual(
            Set(urls),
            [nginx.url("") + "na%C3%AFve%20file.bin", nginx.url("") + "report%202026%20(final).pdf"])
        _ = try await haul("daemon", "--stop")
    }

    func testAddSaysHowToStartAndAddStartStartsTheDaemon() async throws {
        try TestFiles.random(www + "/a.bin", size: 100_000)
        let nested = dir.path + "/new/nested/folder"
        let add = try await haul("add", "-d", nested, nginx.url("a.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(
            add.stderr, "haul: nothing runs the downloads yet: open 'haul', run 'haul run', or add with --start\n")
        var isDirectory: ObjCBool = false
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue)

        let started = try await haul("add", "--start", "-d", nested, "-o", "second.bin", nginx.url("a.bin"))
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(started.stdout.contains("haul daemon (pid "), started.stdout)
        try await waitUntil {
            sameFile(nested + "/a.bin", www + "/a.bin") && sameFile(nested + "/second.bin", www + "/a.bin")
        }
        let third = try await haul("add", "-d", nested, "-o", "third.bin", nginx.url("a.bin"))
        // The same URL again is a warning; beyond it, the daemon may have left already (it exits
        // once idle), and then the hint is right.
        let beyondWarning = third.stderr.split(separator: "\n").filter { !$0.contains("is already in the list") }
        if !beyondWarning.isEmpty {
            XCTAssertTrue(third.stderr.contains("nothing runs the downloads yet"), third.stderr)
        }
        _ = try await haul("daemon", "--stop")
    }

    func testRefreshGivesAnExpiredDownloadANewLinkAndKeepsItsBytes() async throws {
        let file = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let expired = Atomic<Bool>(false)
        let server = try FaultServer { request, _ in
            if request.path.hasPrefix("/signed") {
                if expired.load(ordering: .relaxed) { return [.send(FaultServer.head(403, [("Content-Length", "0")]))] }
                expired.store(true, ordering: .relaxed)
                guard case .send(let bytes) = FaultServer.serve(file, for: request)[0] else { return [] }
                return [.send(Array(bytes.prefix(bytes.count - file.count + 1_000_000))), .sleep(0.1), .reset]
            }
            return FaultServer.serve(file, for: request)
        }
        defer { server.stop() }
        let add = try await haul("add", "-x", "1", server.url("signed/f.bin?token=old"))
        let id = String(add.stdout.prefix(6))
        let failed = try await haul("run")
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("HTTP 403"), failed.stdout)

        let refresh = try await haul("refresh", id, server.url("fresh/f.bin?token=new"))
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stdout.contains("new link: "), refresh.stdout)
        let again = try await haul("refresh", id, "ftp://nowhere/x")
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("unsupported scheme 'ftp'"), again.stderr)

        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(TestFiles.contents(downloads + "/f.bin").map(Array.init), file)
        let ranges = server.requests.filter { $0.path.hasPrefix("/fresh") }.map { $0.headers["range"] }
        XCTAssertEqual(ranges, ["bytes=0-0", "bytes=1000000-"])
        let list = try await listJSON()
        XCTAssertEqual(list[0]["previousURLs"] as? [String], [server.url("signed/f.bin?token=old")])
        let finished = try await haul("refresh", id, server.url("other"))
        XCTAssertEqual(finished.stderr, "haul: \(id) has finished; there is nothing left to fetch from a new link\n")
    }

    func testCookiesCommandSavesShowsAndForgetsTheDefaultFile() async throws {
        let cookies = dir.path + "/cookies.txt"
        try "example.org\tFALSE\t/\tFALSE\t0\ta\tsecret-value\n.example.org\tTRUE\t/\tTRUE\t0\tb\t2\n".write(
            toFile: cookies, atomically: true, encoding: .utf8)
        let set = try await haul("cookies", cookies)
        XCTAssertEqual(set.stdout, "cookies: \(cookies) (2 cookie(s))\n")
        XCTAssertFalse(set.stdout.contains("secret-value"), "values are never shown")
        let shown = try await haul("cookies")
        XCTAssertEqual(shown.stdout, set.stdout)
        let bad = try await haul("cookies", dir.path + "/nope.txt")
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "haul: cannot read the cookie file \(dir.path)/nope.txt: no such file\n")
        let none = try await haul("cookies", "none")
        XCTAssertEqual(none.stdout, "cookies: none (haul cookies FILE sets a cookies.txt file)\n")
        let badAdd = try await haul("add", "--load-cookies", "/etc/passwd", "http://127.0.0.1/x")
        XCTAssertEqual(badAdd.status, 2)
        XCTAssertTrue(badAdd.stderr.contains("is not a cookies.txt file"), badAdd.stderr)
    }
}
