import Foundation
import HaulTestSupport
import XCTest

/// haul installed like a Linux program: `make install` and `make uninstall` with `DESTDIR` and
/// `PREFIX`, the man page generated from the command-line definitions, and the Debian package
/// (`scripts/make-deb`), installed with `dpkg -i` when the tests run as root.
final class InstallTests: CLITestCase {
    /// The repository this test file is in.
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let installed = [
        "usr/local/bin/haul", "usr/local/share/bash-completion/completions/haul",
        "usr/local/share/fish/vendor_completions.d/haul.fish", "usr/local/share/man/man1/haul.1",
        "usr/local/share/zsh/site-functions/_haul",
    ]

    func make(_ arguments: String...) async throws -> CommandResult {
        try await ChildProcess.run(
            "/usr/bin/make", ["--no-print-directory", "-C", repository] + arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home],
            in: repository, timeout: 300)
    }

    func files(under root: String) -> [String] {
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return found.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// The subcommands `haul --help` lists.
    func subcommands() async throws -> [String] {
        let help = try await haul("--help")
        let after = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let section = after.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }
    }

    func testMakeInstallPlacesExactlyItsFilesAndUninstallRemovesThem() async throws {
        let root = dir.subdirectory("root")
        let install = try await make(
            "install", "INSTALL_BINARY=\(HaulBinary.path)", "DESTDIR=\(root)", "PREFIX=/usr/local")
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        XCTAssertEqual(files(under: root), Self.installed)
        let version = try await ChildProcess.run(
            root + "/usr/local/bin/haul", ["--version"], environment: [:], in: root)
        XCTAssertEqual(version.status, 0)

        let page = try await ChildProcess.run(
            "/usr/bin/man", ["-l", root + "/usr/local/share/man/man1/haul.1"],
            environment: ["MANPAGER": "cat", "MANWIDTH": "100", "PATH": "/usr/bin:/bin"], in: root)
        XCTAssertEqual(page.status, 0, page.stderr)
        let commands = try await subcommands()
        XCTAssertGreaterThan(commands.count, 15, "\(commands)")
        // Each is an entry of the page: the name at the start of an indented line.
        let entries = Set(
            page.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for command in commands { XCTAssertTrue(entries.contains(command), "the man page lists \(command)") }
        XCTAssertTrue(page.stdout.contains("--mirror"))

        let uninstall = try await make("uninstall", "DESTDIR=\(root)", "PREFIX=/usr/local")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(files(under: root), [])
    }

    func testTheDebianPackageHoldsTheSameFilesAndInstalls() async throws {
        let build = try await ChildProcess.run(
            repository + "/scripts/make-deb", [HaulBinary.path],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home],
            in: repository, timeout: 300)
        XCTAssertEqual(build.status, 0, build.stderr)
        let deb = repository + "/" + build.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let info = try await ChildProcess.run("/usr/bin/dpkg-deb", ["--info", deb], environment: [:], in: repository)
        XCTAssertTrue(info.stdout.contains("Package: haul"), info.stdout)
        XCTAssertTrue(info.stdout.contains("libncursesw6") && info.stdout.contains("libc6"), info.stdout)
        let contents = try await ChildProcess.run(
            "/usr/bin/dpkg-deb", ["--contents", deb], environment: [:], in: repository)
        for file in Self.installed {
            let packaged = "./" + file.replacingOccurrences(of: "usr/local/", with: "usr/")
            XCTAssertTrue(contents.stdout.contains(packaged), "\(packaged) in \(contents.stdout)")
        }
        // Installing touches the machine: only as root, and only where no haul is installed.
        guard getuid() == 0, !FileManager.default.fileExists(atPath: "/usr/bin/haul") else { return }
        let dpkg = try await ChildProcess.run(
            "/usr/bin/dpkg", ["-i", deb], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], in: repository,
            timeout: 120)
        XCTAssertEqual(dpkg.status, 0, dpkg.stdout + dpkg.stderr)
        let version = try await ChildProcess.run("/usr/bin/haul", ["--version"], environment: [:], in: repository)
        XCTAssertEqual(version.status, 0)
        let page = try await ChildProcess.run(
            "/usr/bin/man", ["haul"], environment: ["MANPAGER": "cat", "PATH": "/usr/bin:/bin"], in: repository)
        XCTAssertTrue(page.stdout.contains("Queue one or more URLs."), page.stdout + page.stderr)
        let remove = try await ChildProcess.run(
            "/usr/bin/dpkg", ["-r", "haul"], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], in: repository,
            timeout: 120)
        XCTAssertEqual(remove.status, 0, remove.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/bin/haul"))
    }
}
