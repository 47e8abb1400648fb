import ArgumentParser
import HaulCore

/// Runs what was typed after `:` in the UI with `haul`'s own parser and commands, against the
/// UI's engine: `:limit 2M` does what `haul limit 2M` does, and says what it prints.
///
/// A command that acts on one download and names none gets the selected one (`:move top`,
/// `:refresh URL`, `:pause`). What it prints is captured, never written to the terminal; its
/// errors read as the command line prints them.
enum CommandLineRunner {
    /// Commands that only make sense from a shell.
    static let refused: Set<String> = ["run", "daemon", "demo", "help"]

    /// The names Tab completes.
    static var names: [String] {
        Haul.configuration.subcommands.map { $0._commandName }.filter { !refused.contains($0) }.sorted()
    }

    /// The outcome: the lines the command printed, and whether it failed.
    static func run(_ line: String, selected: DownloadID?, on engine: any EngineSession) async
        -> (lines: [String], failed: Bool)
    {
        var words: [String]
        do {
            words = AttachedValues.separated(try CommandWords.split(line))
        } catch {
            return (["haul: \(error.message)"], true)
        }
        guard let name = words.first else { return ([], false) }
        if refused.contains(name) {
            return (["haul: '\(TerminalText.sanitize(name))' runs from a shell, not here"], true)
        }
        if let selected { words = withSelection(words, selected) }
        let capture = ConsoleCapture()
        var failed = false
        do {
            var command = try Haul.parseAsRoot(words)
            if var runnable = command as? AsyncParsableCommand {
                try await EngineAccess.$injected.withValue(engine) {
                    try await Console.$capture.withValue(capture) { try await runnable.run() }
                }
            } else {
                try Console.$capture.withValue(capture) { try command.run() }
            }
        } catch {
            failed = true
            // As the command line prints it: "Error: …" for bad usage (its first line), "haul: …" else.
            let message = Haul.fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? ""
            if !message.isEmpty { capture.add(message, isError: true) }
        }
        let lines = capture.all
        return (lines.map(\.text), failed || lines.contains { $0.isError })
    }

    /// `words` with the selected download's id where the command wants one and has none.
    /// Whether `word` is a download id rather than a file list (ids are hex, lists have commas,
    /// dashes or are short numbers).
    static func looksLikeID(_ word: String) -> Bool {
        word.count >= 4 && word.allSatisfy(\.isHexDigit) && word.contains(where: \.isLetter)
    }

    static func withSelection(_ words: [String], _ id: DownloadID) -> [String] {
        let arguments = words.dropFirst().filter { !$0.hasPrefix("-") }
        let flags = Set(words.dropFirst().filter { $0.hasPrefix("-") })
        switch words[0] {
        case "move" where arguments.count == 1, "refresh" where arguments.count == 1,
            "files" where arguments.count <= 1 && !(arguments.first.map { Self.looksLikeID($0) } ?? false):
            return [words[0], id.rawValue] + words.dropFirst()
        case "pause", "resume", "cancel", "retry", "rm", "verify":
            guard arguments.isEmpty, !flags.contains("--all") else { return words }
            return words + [id.rawValue]
        default:
            return words
        }
    }
}
