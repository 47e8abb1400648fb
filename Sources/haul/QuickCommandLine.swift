import ArgumentParser

/// The everyday forms of `haul add` and `haul run`, read without ArgumentParser.
///
/// ArgumentParser reflects over every command type at each start: ~15 M instructions and
/// ~1.2–1.9 ms of a `haul add` or `haul run`, more than either spends on its own work for a
/// short list. Those two commands are what scripts run over and over, so their plain forms are
/// read here: options by their exact names (`--name value`, `--name=value`, `-x value`), flags,
/// and the URLs. Anything else (help, `--version`, an unknown or repeated option, a value that
/// starts with `-`, `--`, `-x` with its value glued on, an argument ArgumentParser would refuse)
/// returns nil, and ArgumentParser, which stays the one definition of the command line, reads
/// it. `QuickCommandLineTests` holds the two to the same commands.
enum QuickCommandLine {
    static func parse(_ arguments: [String]) -> (any AsyncParsableCommand)? {
        guard let name = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        switch name {
        case "add": return add(rest)
        case "run": return run(rest)
        default: return nil
        }
    }

    private static func add(_ arguments: ArraySlice<String>) -> AddCommand? {
        guard
            let words = SimpleArguments(
                arguments,
                options: [
                    "-i": "input-file", "--input-file": "input-file", "-d": "directory", "--directory": "directory",
                    "-o": "output", "--output": "output", "--sha256": "sha256", "--header": "header",
                    "--state": "state",
                ],
                repeating: ["header"],
                flags: ["--allow-metered", "--paused"],
                positionals: true
            )
        else { return nil }
        var command = AddCommand()
        command.urls = words.positionals
        command.inputFile = words.value("input-file")
        command.directory = words.value("directory")
        command.output = words.value("output")
        command.sha256 = words.value("sha256")
        command.header = words.values["header"] ?? []
        command.allowMetered = words.flags.contains("--allow-metered")
        command.paused = words.flags.contains("--paused")
        command.stateOptions = stateOptions(words)
        guard (try? command.validate()) != nil else { return nil }
        return command
    }

    private static func run(_ arguments: ArraySlice<String>) -> RunCommand? {
        guard
            let words = SimpleArguments(
                arguments,
                options: [
                    "-j": "concurrency", "--concurrency": "concurrency", "--on-complete": "on-complete",
                    "--state": "state",
                ],
                repeating: [],
                flags: [],
                positionals: false
            )
        else { return nil }
        var command = RunCommand()
        if let text = words.value("concurrency") {
            guard let concurrency = Int(text) else { return nil }
            command.concurrency = concurrency
        } else {
            command.concurrency = nil
        }
        var hooks = HookOptions()
        hooks.onComplete = words.value("on-complete")
        command.hookOptions = hooks
        command.stateOptions = stateOptions(words)
        return command
    }

    private static func stateOptions(_ words: SimpleArguments) -> StateOptions {
        var options = StateOptions()
        options.state = words.value("state")
        return options
    }
}

/// A command's arguments in the plain forms only; nil for anything that is not one of them.
struct SimpleArguments {
    /// Option values by the option's key, in the order given.
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// `options` maps each spelling (`-d`, `--directory`) to its key; an option whose key is not
    /// in `repeating` may be given once.
    init?(
        _ arguments: ArraySlice<String>, options: [String: String], repeating: Set<String>, flags known: Set<String>,
        positionals allowed: Bool
    ) {
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let word = arguments[i]
            i += 1
            guard let first = word.utf8.first else { return nil }
            guard first == UInt8(ascii: "-") else {
                guard allowed else { return nil }
                positionals.append(word)
                continue
            }
            if known.contains(word) {
                guard flags.insert(word).inserted else { return nil }
                continue
            }
            let spelling: Substring
            var value: Substring?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                spelling = word[..<equals]
                value = word[word.index(after: equals)...]
            } else {
                spelling = word[...]
            }
            guard let key = options[String(spelling)] else { return nil }
            if value == nil {
                guard i < arguments.endIndex else { return nil }
                value = arguments[i][...]
                i += 1
            }
            guard let value, !value.isEmpty, value.utf8.first != UInt8(ascii: "-") else { return nil }
            if values[key] != nil, !repeating.contains(key) { return nil }
            values[key, default: []].append(String(value))
        }
    }

    /// The value of a single-valued option, nil when it was not given.
    func value(_ key: String) -> String? { values[key]?.first }
}
