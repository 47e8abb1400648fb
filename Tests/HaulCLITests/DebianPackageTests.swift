import Foundation
import HaulCore
import HaulTestSupport
import Synchronization
import XCTest

/// The Debian package as Debian checks one and a user installs it: `scripts/make-deb` builds
/// haul's package and its `-dbgsym`, lintian finds no error, the debug symbols belong to the
/// stripped binary and gdb reads source lines through them, and (as root, where no haul is
/// installed) `dpkg -i` gives a working haul with valid user units and `dpkg -r` takes every file
/// back. The package is built from the tests' build linked as the release is (the Swift
/// libraries inside), so no release build is needed.
final class DebianPackageTests: CLITestCase {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    func run(_ program: String, _ arguments: String...) async throws -> CommandResult {
        try await ChildProcess.run(
            program, arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home], in: dir.path,
            timeout: 300)
    }

    /// haul linked as the release is, from the tests' build (`scripts/link-packaged`, which
    /// `make test` runs).
    var packagedBinary: String { PathText.folder(of: HaulBinary.path) + "/haul-packaged" }

    /// The packages `scripts/make-deb` builds (the program's and its symbols'), once for the
    /// tests that run in one process.
    func build() async throws -> (package: String, symbols: String) {
        try XCTSkipUnless(
            FileManager.default.fileExists(atPath: packagedBinary), "make test links \(packagedBinary) first")
        let (repository, binary, path) = (repository, packagedBinary, path)
        let task = Self.packages.withLock { built in
            if let built { return built }
            let task = Task { () throws -> CommandResult in
                // The test process's own folder: what `make deb` left in .build is not touched.
                let output = "/tmp/haul-deb-tests-\(getpid())"
                try? FileManager.default.removeItem(atPath: output)
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                return try await ChildProcess.run(
                    repository + "/scripts/make-deb", [binary],
                    environment: [
                        "PATH": path, "HOME": "/tmp", "DEB_COMPRESSION": "gzip", "DEB_COMPRESSION_LEVEL": "1",
                        "DEB_OUTPUT_DIR": output,
                    ], in: repository, timeout: 300)
            }
            built = task
            return task
        }
        let made = try await task.value
        XCTAssertEqual(made.status, 0, made.stderr)
        let built = made.stdout.split(separator: "\n").map(String.init)
        try XCTSkipUnless(built.count == 2, "make-deb: \(made.stdout) \(made.stderr)")
        return (built[0], built[1])
    }

    private static let packages = Mutex<Task<CommandResult, any Error>?>(nil)

    /// The packages go once the suite's last test in this process has used them.
    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: "/tmp/haul-deb-tests-\(getpid())")
        super.tearDown()
    }

    func testThePackageHoldsWhatADebianPackageShipsAndLintianFindsNoError() async throws {
        let (package, symbols) = try await build()
        let contents = try await run("/usr/bin/dpkg-deb", "--contents", package)
        for file in [
            "usr/bin/haul", "usr/share/man/man1/haul.1.gz", "usr/share/bash-completion/completions/haul",
            "usr/share/zsh/vendor-completions/_haul", "usr/share/fish/vendor_completions.d/haul.fish",
            "usr/share/doc/haul/copyright", "usr/share/doc/haul/changelog.Debian.gz",
            "usr/lib/systemd/user/haul.socket", "usr/lib/systemd/user/haul-rpc.socket",
            "usr/lib/systemd/user/haul.service",
        ] {
            XCTAssertTrue(contents.stdout.contains("./" + file + "\n"), "\(file) in \(contents.stdout)")
        }
        let info = try await run("/usr/bin/dpkg-deb", "--info", package)
        XCTAssertTrue(info.stdout.contains("libncursesw6") && info.stdout.contains("libc6 (>="), info.stdout)
        let lintian = try await run("/usr/bin/lintian", "--fail-on", "error,warning", package, symbols)
        XCTAssertEqual(lintian.status, 0, "lintian: " + lintian.stdout + lintian.stderr)
    }

    func testTheSymbolsBelongToTheStrippedBinaryAndGdbFindsSourceLines() async throws {
        let (package, symbols) = try await build()
        let root = dir.subdirectory("package")
        let debug = dir.subdirectory("dbgsym")
        _ = try await run("/usr/bin/dpkg-deb", "-x", package, root)
        _ = try await run("/usr/bin/dpkg-deb", "-x", symbols, debug)
        let binary = root + "/usr/bin/haul"
        let sections = try await run("/usr/bin/readelf", "-S", binary)
        XCTAssertFalse(sections.stdout.contains(".debug_info"), "the packaged binary is stripped")
        let notes = try await run("/usr/bin/readelf", "-n", binary)
        let id = try XCTUnwrap(
            notes.stdout.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last)
        let file = debug + "/usr/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug"
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "the symbols are filed under \(id)")
        // `main` is the compiler's entry point, which has no line; haul's own `Haul.main` has one.
        let gdb = try await run(
            "/usr/bin/gdb", "-batch", "-nx", "-iex", "set debug-file-directory \(debug)/usr/lib/debug", "-ex",
            "info line $s4haul4HaulV4mainyyYaFZ", binary)
        XCTAssertTrue(
            gdb.stdout.contains("of \"") && gdb.stdout.contains("Sources/haul/Haul.swift\" starts at address"),
            gdb.stdout + gdb.stderr)
    }

    func testInstalledWithDpkgHaulRunsItsUnitsVerifyAndRemovalLeavesNothing() async throws {
        try XCTSkipIf(getuid() != 0, "installing a package needs root")
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/usr/bin/haul"), "a haul is installed here already")
        let (package, symbols) = try await build()
        let install = try await run("/usr/bin/dpkg", "-i", package, symbols)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let listed = try await run("/usr/bin/dpkg", "-L", "haul", "haul-dbgsym")
        let files = listed.stdout.split(separator: "\n").map(String.init).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        XCTAssertGreaterThan(files.count, 10, listed.stdout)
        // Removed however the checks end, so the next run finds no haul installed.
        var failure: (any Error)?
        do {
            let version = try await run("/usr/bin/haul", "--version")
            XCTAssertEqual(version.status, 0, version.stderr)
            let list = try await ChildProcess.run(
                "/usr/bin/haul", ["ls"], environment: ["HOME": home, "PATH": "/usr/bin:/bin"], in: dir.path)
            XCTAssertEqual(list.status, 0, list.stderr)
            let units = ["haul.socket", "haul-rpc.socket", "haul.service"].map { "/usr/lib/systemd/user/" + $0 }
            let verify = try await ChildProcess.run(
                "/usr/bin/systemd-analyze", ["verify"] + units, environment: ["PATH": "/usr/bin:/bin"],
                in: dir.path)
            XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
            let page = try await ChildProcess.run(
                "/usr/bin/man", ["haul"], environment: ["MANPAGER": "cat", "PATH": "/usr/bin:/bin"], in: dir.path)
            XCTAssertTrue(page.stdout.contains("Queue one or more URLs."), page.stdout + page.stderr)
        } catch {
            failure = error
        }
        let remove = try await run("/usr/bin/dpkg", "-r", "haul-dbgsym", "haul")
        XCTAssertEqual(remove.status, 0, remove.stdout + remove.stderr)
        for file in files { XCTAssertFalse(FileManager.default.fileExists(atPath: file), "\(file) is left") }
        if let failure { throw failure }
    }
}
