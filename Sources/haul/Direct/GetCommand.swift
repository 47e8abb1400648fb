import ArgumentParser
import FoundationEssentials
import HaulCore

/// `haul URL…` (and `haul get URL…`): the URLs into the current directory, as wget does. The
/// root command cannot take URLs itself: a positional argument there would swallow every
/// subcommand's name that follows a root option (`haul --state S ls`), so ``arguments(_:)`` names
/// this command when the first word after the root's options is a URL.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs into the current directory and return when they are done (as 'haul URL…').",
        discussion:
            "The downloads go through the same folder rules, netrc logins and proxies as 'haul add', into the same "
            + "state: Ctrl-C keeps every byte and the same command resumes. Only these downloads run here; when a "
            + "daemon or the UI already runs the downloads, it takes them and this command follows them. Exit "
            + "code 1 if one failed, 130 if interrupted.",
        shouldDisplay: false
    )

    @Argument(
        help: ArgumentHelp("http:// or https:// URLs, magnet links, torrent or Metalink files.", valueName: "url"))
    var urls: [String] = []

    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL") }
        if connectOptions.connect != nil {
            throw ValidationError("'haul URL' downloads on this machine; 'haul add --connect' adds to another")
        }
    }

    func run() async throws {
        try await DirectDownload(urls: urls, stateOptions: stateOptions, hooks: hookOptions.hooks()).run()
    }

    /// The root's options that take a value as the next word.
    static let rootOptionsWithValues: Set<String> = [
        "--on-complete", "--on-error", "--on-queue-empty", "--hook-args", "--hook-time-limit", "--state", "--connect",
        "--secret",
    ]

    /// A torrent or Metalink file by its name, or any file that exists: `get` says what it makes
    /// of it (no subcommand's name holds a dot or a slash).
    static func namesAFile(_ word: String) -> Bool {
        if word.hasSuffix(".torrent") || word.hasSuffix(".meta4") || word.hasSuffix(".metalink") { return true }
        return (word.contains(".") || word.contains("/")) && FileManager.default.fileExists(atPath: word)
    }

    /// `arguments` with `get` before the first word that is not an option, when that word is a
    /// URL (`scheme://…`), a magnet link or a file (see ``namesAFile(_:)``) rather than a command's name.
    static func arguments(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return arguments }
            if word.hasPrefix("-") {
                index += rootOptionsWithValues.contains(word) ? 2 : 1
                continue
            }
            guard word.contains("://") || MagnetLink.isMagnet(word) || Self.namesAFile(word) else {
                return arguments
            }
            var rewritten = arguments
            rewritten.insert(configuration.commandName ?? "get", at: index)
            return rewritten
        }
        return arguments
    }
}
