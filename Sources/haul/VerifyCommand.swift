import ArgumentParser
import HaulCore
import HaulEngine

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check finished files against their checksums again.",
        discussion:
            "Reads each finished file and compares it with the checksum it was added with (--checksum, --sha256, "
            + "--checksum-file); a torrent's files, with its piece hashes. A download without either gets its "
            + "SHA-256 printed. Exits with status 1 when a file does not match or is gone. Without ids, verifies "
            + "every finished download that has a checksum, and every finished torrent."
    )

    @Argument(help: ArgumentHelp("Download ids (or unique prefixes).", valueName: "id"))
    var ids: [String] = []

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let downloads: [Download]
        do {
            let engine = try await EngineAccess.session(stateOptions)
            let all = try await engine.snapshot().downloads.all
            if ids.isEmpty {
                downloads = all.filter { $0.state == .finished && ($0.checksum != nil || $0.isTorrent) }
            } else {
                let chosen = Set(try DownloadSelector.resolve(ids, among: all.map(\.id)))
                downloads = all.filter { chosen.contains($0.id) }
            }
        } catch {
            throw Console.failure(error)
        }
        if downloads.isEmpty { return Console.out("no finished download has a checksum or piece hashes to verify") }
        var bad = 0
        for d in downloads {
            let (line, ok) = Self.verify(d, statePath: stateOptions.statePath)
            if !ok { bad += 1 }
            Console.out("\(d.id)  \(TerminalText.sanitize(d.displayName))  \(line)")
        }
        if bad > 0 { throw ExitCode(1) }
    }

    /// What `d`'s file says, and whether that is all right.
    static func verify(_ d: Download, statePath: String) -> (String, Bool) {
        guard d.state == .finished, let path = d.path else { return ("not finished; nothing to verify", true) }
        if d.isTorrent, d.checksum == nil { return verifyPieces(d, statePath: statePath) }
        let algorithm = d.checksum?.algorithm ?? .sha256
        let actual: String
        do {
            actual = try FileChecksum.digestOfFile(path, algorithm)
        } catch {
            return (TerminalText.sanitize(error.message), false)
        }
        guard let expected = d.checksum else {
            return ("no checksum to check against; its SHA-256 is \(actual)", true)
        }
        if actual == expected.hex { return ("\(algorithm.displayName) OK", true) }
        return ("\(algorithm.displayName) MISMATCH: expected \(expected.hex), got \(actual)", false)
    }

    /// A torrent's files against its piece hashes.
    static func verifyPieces(_ d: Download, statePath: String) -> (String, Bool) {
        let check: TorrentPieceCheck
        do {
            check = try TorrentPieceCheck.run(d, statePath: statePath)
        } catch {
            return ("cannot check its pieces: \(error.message)", false)
        }
        if check.isWhole { return ("all \(check.pieces) pieces OK (SHA-1)", true) }
        var parts: [String] = []
        if check.failed > 0 { parts.append("\(check.failed) of \(check.pieces) pieces fail their hash") }
        if check.unreadable > 0 {
            parts.append("\(check.unreadable) of \(check.pieces) pieces cannot be read (a file is gone or short)")
        }
        let first = check.firstBadFile.map { "; the first in \(TerminalText.sanitize($0))" } ?? ""
        return (parts.joined(separator: ", ") + first, false)
    }
}
