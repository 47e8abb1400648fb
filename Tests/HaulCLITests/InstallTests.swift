import Foundation
import HaulTestSupport
import XCTest

/// haul installed like a Linux program: `make install` and `make uninstall` with `DESTDIR` and
/// `PREFIX`, a stripped binary, and the man page and completions generated from the command-line
/// definitions.
/// The Debian package has tests of its own (`DebianPackageTests`).
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
        let sections = try await ChildProcess.run(
            "/usr/bin/readelf", ["-S", root + "/usr/local/bin/haul"], environment: [:], in: root)
        XCTAssertFalse(sections.stdout.contains(".debug_info"), "installed stripped")
        XCTAssertFalse(sections.stdout.contains(".symtab"), "installed stripped")
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
        // The completions come from the same definitions: every subcommand is offered.
        let zsh = try String(contentsOfFile: root + "/usr/local/share/zsh/site-functions/_haul", encoding: .utf8)
        for command in commands { XCTAssertTrue(zsh.contains("'\(command):"), "zsh completes \(command)") }

        let uninstall = try await make("uninstall", "DESTDIR=\(root)", "PREFIX=/usr/local")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(files(under: root), [])
    }
}
