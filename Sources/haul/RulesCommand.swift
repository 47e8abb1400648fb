import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulStore

/// `haul rules`: folders by kind of file or by host, for downloads added without `-d`.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Show the folder rules: where downloads added without -d go, by name, kind or host.",
        discussion: """
            A rule is PATTERN = FOLDER. PATTERN is file-name globs ('*.iso,*.img'), a group (\
            \(FileGroup.allCases.map(\.rawValue).joined(separator: ", "))) or host:GLOB ('host:*.example.org'). \
            The first rule that matches wins; none matching, the download directory. The rules live in \
            $XDG_CONFIG_HOME/haul/folders, which you may edit.
            """,
        subcommands: [RulesListCommand.self, RulesAddCommand.self, RulesRemoveCommand.self, RulesTestCommand.self],
        defaultSubcommand: RulesListCommand.self
    )

    static func path() -> String { StatePaths.folderRules(environment: ProcessInfo.processInfo.environment) }

    static func read() throws -> FolderRules {
        do { return try FolderRulesFile.read(path()) } catch { throw error.reported() }
    }

    static func write(_ rules: FolderRules) throws {
        let path = path()
        do {
            try FileManager.default.createDirectory(
                atPath: PathText.directory(of: path), withIntermediateDirectories: true)
            try AtomicFile.write(Data(FolderRulesFile.text(rules).utf8), to: path, mode: 0o644)
        } catch {
            Console.error("cannot save the folder rules in \(TerminalText.sanitize(path)): \(error)")
            throw ExitCode(1)
        }
    }

    static func show(_ rules: FolderRules) {
        guard !rules.rules.isEmpty else {
            return Console.out(
                "no folder rules: downloads go to the download directory (haul rules add PATTERN FOLDER)")
        }
        for (index, rule) in rules.rules.enumerated() {
            Console.out(
                "\(index + 1). \(TerminalText.sanitize(rule.pattern.text)) → \(TerminalText.sanitize(rule.folder))")
        }
    }
}

struct RulesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the rules in order.")

    func run() throws { RulesCommand.show(try RulesCommand.read()) }
}

struct RulesAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a rule at the end (or --first).")

    @Argument(help: ArgumentHelp("'*.iso,*.img', a group such as video, or host:GLOB.", valueName: "pattern"))
    var pattern: String

    @Argument(help: ArgumentHelp("The folder (absolute, or under ~/).", valueName: "folder"))
    var folder: String

    @Flag(name: .long, help: "Put it before the other rules.")
    var first = false

    func run() throws {
        guard let parsed = FolderRules.Pattern(pattern) else {
            throw InputError("'\(TerminalText.sanitize(pattern))' is not a pattern").reported()
        }
        var given = folder
        if let home = ProcessInfo.processInfo.environment["HOME"], given.hasPrefix(home + "/") {
            given = "~" + given.dropFirst(home.count)
        }
        guard let folder = FolderRulesFile.folder(given) else {
            throw InputError("the folder must be absolute or start with ~/").reported()
        }
        var rules = try RulesCommand.read()
        let rule = FolderRules.Rule(pattern: parsed, folder: folder)
        if first { rules.rules.insert(rule, at: 0) } else { rules.rules.append(rule) }
        try RulesCommand.write(rules)
        RulesCommand.show(rules)
    }
}

struct RulesRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove rule N (as listed).")

    @Argument(help: ArgumentHelp("The rule's number.", valueName: "n"))
    var number: Int

    func run() throws {
        var rules = try RulesCommand.read()
        guard rules.rules.indices.contains(number - 1) else {
            throw InputError("there is no rule \(number) (haul rules lists them)").reported()
        }
        rules.rules.remove(at: number - 1)
        try RulesCommand.write(rules)
        RulesCommand.show(rules)
    }
}

struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Say where a file of this name (or from this URL) would go.")

    @Argument(help: ArgumentHelp("A file name, or a URL.", valueName: "name|url"))
    var name: String

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let rules = try RulesCommand.read()
        let (fileName, host) = Self.nameAndHost(name)
        let home = StatePaths.home(environment)
        let folder = rules.folder(name: fileName, host: host, home: home)
        let index = rules.rules.firstIndex { $0.pattern.matches(name: fileName ?? "", host: host) }
        let shownName = TerminalText.sanitize(fileName ?? name)
        if let folder, let index {
            Console.out("\(shownName) → \(TerminalText.sanitize(folder)) (rule \(index + 1))")
        } else {
            let directory = StatePaths.downloadDirectory(environment: environment)
            Console.out("\(shownName) → \(TerminalText.sanitize(directory)) (no rule matches)")
        }
    }

    /// A URL's file name and host, or a plain name and no host.
    static func nameAndHost(_ given: String) -> (name: String?, host: String?) {
        guard given.contains("://"), let url = try? DownloadURL.validate(given) else { return (given, nil) }
        return (FileNaming.nameFromURL(url), URLParts(url)?.host)
    }
}
