import ArgumentParser
import HaulCore
import HaulEngine

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check finished files against their checksums again.",
        discussion:
            "Reads each finished file and compares it with the checksum it was added with (--checksum, --sha256, "
            + "--checksum-file). A download without one gets its SHA-256 printed. Exits with status 1 when a file "
            + "does not match or is gone. Without ids, verifies every finished download that has a checksum."
    )

    @Argument(help: ArgumentHelp("Download ids (or unique prefixes).", valueName: "id"))
    var ids: [String] = []

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let downloads: [Download]
        do {
            let engine = try await EngineAccess.open(stateOptions).session
            let all = try await engine.snapshot().downloads.all
            if ids.isEmpty {
                downloads = all.filter { $0.state == .finished && $0.checksum != nil }
            } else {
                let chosen = Set(try DownloadSelector.resolve(ids, among: all.map(\.id)))
                downloads = all.filter { chosen.contains($0.id) }
            }
        } catch {
            throw Console.failure(error)
        }
        if downloads.isEmpty { return Console.out("no finished download has a checksum to verify") }
        var bad = 0
        for d in downloads {
            let (line, ok) = Self.verify(d)
            if !ok { bad += 1 }
            Console.out("\(d.id)  \(TerminalText.sanitize(d.displayName))  \(line)")
        }
        if bad > 0 { throw ExitCode(1) }
    }

    /// What `d`'s file says, and whether that is all right.
    static func verify(_ d: Download) -> (String, Bool) {
        guard d.state == .finished, let path = d.path else { return ("not finished; nothing to verify", true) }
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
}
