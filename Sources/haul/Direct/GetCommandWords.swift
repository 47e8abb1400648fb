import ArgumentParser
import FoundationEssentials
import HaulCore

/// The words of a command line that make it `haul URL…` (`get`), and the words other tools'
/// users type, read as haul takes them: curl's clustered flags (`-fsSL`), its `-O` without a
/// value, aria2c's `-k SIZE`. Each rewrites words only; the options themselves are `GetCommand`'s
/// and `DownloadOptions`'.
extension GetCommand {
    /// The root's options that take a value as the next word.
    static let rootOptionsWithValues: Set<String> = [
        "--on-complete", "--on-error", "--on-queue-empty", "--hook-args", "--hook-time-limit", "--state", "--connect",
        "--secret",
    ]

    /// The root's flags: any other option before a URL is this command's, or unknown to both
    /// (then this command's usage is the one shown).
    static let rootFlags: Set<String> = ["--no-mouse", "--version", "-h", "--help"]

    /// This command's own options that take a value as the next word, by every name they have.
    static let ownOptionsWithValues: Set<String> = DownloadOptions.namesWithValues.union(
        DownloadOptions.hiddenNamesWithValues
    )
    .union(QuietOption.hiddenNamesWithValues)
    .union([
        "-j", "--concurrency", "--max-concurrent-downloads", "--parallel-max", "-C", "--continue-at", "-T", "--timeout",
        "--connect-timeout", "--max-time",
    ])

    /// This command's own flags, by every name they have.
    static let ownFlags: Set<String> = DownloadOptions.flagNames.union(QuietOption.names).union([
        "-c", "--continue", "-L", "--location", "-nc", "--no-clobber", "-Z", "--parallel", "--force-sequential",
        "--content-disposition", "--create-dirs", "--compressed",
    ])

    /// A torrent or Metalink file by its name, or any file that exists: `get` says what it makes
    /// of it (no subcommand's name holds a dot or a slash).
    static func namesAFile(_ word: String) -> Bool {
        if word.hasSuffix(".torrent") || word.hasSuffix(".meta4") || word.hasSuffix(".metalink") { return true }
        return (word.contains(".") || word.contains("/")) && FileManager.default.fileExists(atPath: word)
    }

    /// `arguments` with `get` before the first word that is not an option, when that word is a
    /// URL (`scheme://…`), a magnet link or a file (see ``namesAFile(_:)``) rather than a command's
    /// name; at the front when an option only this command has comes first (`haul -o NAME URL`,
    /// `haul -i FILE`), or one the root does not have comes before a URL (`haul -N x URL` is
    /// told what `haul URL` takes).
    static func arguments(_ given: [String]) -> [String] {
        let arguments = readingStandardOutput(readingAria2csMinSplitSize(given))
        var index = 0
        var ownOptionFirst = false
        var unknownFirst = false
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return arguments }
            if word.hasPrefix("-") {
                let name = String(word.prefix { $0 != "=" })
                if ownOptionsWithValues.contains(name) || ownFlags.contains(name) {
                    ownOptionFirst = true
                } else if !rootOptionsWithValues.contains(name) && !rootFlags.contains(name) {
                    unknownFirst = true
                }
                let takesNext =
                    name == word && (rootOptionsWithValues.contains(word) || ownOptionsWithValues.contains(word))
                index += takesNext ? 2 : 1
                continue
            }
            guard word.contains("://") || MagnetLink.isMagnet(word) || Self.namesAFile(word) else {
                // An unknown option's value may come first (`-N name URL`).
                guard unknownFirst, arguments[index...].contains(where: { $0.contains("://") }) else {
                    return arguments
                }
                return droppingBareRemoteName(readingCurlsFlags([configuration.commandName ?? "get"] + arguments))
            }
            ownOptionFirst = ownOptionFirst || unknownFirst
            break
        }
        guard index < arguments.count || ownOptionFirst else { return arguments }
        var rewritten = arguments
        rewritten.insert(configuration.commandName ?? "get", at: ownOptionFirst ? 0 : index)
        return droppingBareRemoteName(readingCurlsFlags(rewritten))
    }

    /// aria2c's `-k SIZE` and `-kSIZE` (`aria2c -x16 -s16 -k1M URL`) as `--min-split-size=SIZE`:
    /// `-k` is curl's `--insecure` only where no size follows it.
    static func readingAria2csMinSplitSize(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return result + arguments[index...] }
            let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : ""
            if word == "-k", isAria2Size(next) {
                result.append("--min-split-size=" + next)
                index += 2
                continue
            }
            if word.hasPrefix("-k"), case let size = String(word.dropFirst(2)), isAria2Size(size) {
                result.append("--min-split-size=" + size)
            } else {
                result.append(word)
            }
            index += 1
        }
        return result
    }

    /// Standard output as wget and curl users name it, joined or clustered (`-O-`, `-qO-`,
    /// `-sSLo-`, `-qO -`), as `-o -` after the cluster's other flags.
    static func readingStandardOutput(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, word) in arguments.enumerated() {
            if word == "--" { return result + arguments[index...] }
            let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : ""
            let letters = word.hasPrefix("-") && !word.hasPrefix("--") ? word.dropFirst() : ""
            let joined = letters.hasSuffix("O-") || letters.hasSuffix("o-")
            let clustered = letters.count > 1 && (letters.hasSuffix("O") || letters.hasSuffix("o")) && next == "-"
            let others = letters.dropLast(joined ? 2 : 1)
            guard joined || clustered, others.allSatisfy({ "qfsSL".contains($0) }) else {
                result.append(word)
                continue
            }
            if !others.isEmpty { result.append("-" + others) }
            result.append("-o")
            if joined { result.append("-") }
        }
        return result
    }

    /// A size as aria2c writes one: digits, then K or M (either case) or nothing.
    static func isAria2Size(_ text: String) -> Bool {
        let digits = text.last.map { "KkMm".contains($0) } == true ? text.dropLast() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// curl's flags that take no value, alone or as scripts cluster them (`-fsSL`, `-sSLO`): `-s`
    /// (silent) is `-q`; `-L` and `-O` stay; `-f` and `-S` go, as haul fails on an HTTP error and
    /// always says why. A bare `-s` before a number is aria2c's `--split` and stays.
    static func readingCurlsFlags(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, word) in arguments.enumerated() {
            if word == "--" { return result + arguments[index...] }
            let letters = word.hasPrefix("-") && !word.hasPrefix("--") ? word.dropFirst() : ""
            let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : ""
            let split = letters == "s" && Int(next) != nil
            guard !letters.isEmpty, letters.allSatisfy({ "fsSLO".contains($0) }), letters != "L", letters != "O", !split
            else {
                result.append(word)
                continue
            }
            if letters.contains("s") { result.append("-q") }
            if letters.contains("L") { result.append("-L") }
            // Last: `-O URL` names the file by its URL, and `-O` before an option is dropped.
            if letters.contains("O") { result.append("-O") }
        }
        return result
    }

    /// curl's `-O` takes no value: followed by another option (`-LO -C - URL`), it says only to
    /// name the file by its URL, which haul does anyway, and is dropped. Followed by anything
    /// else it is wget's `-O NAME` (or `-O URL`), and `-O -` is refused with its sentence.
    static func droppingBareRemoteName(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, word) in arguments.enumerated() {
            if word == "--" { return result + arguments[index...] }
            let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : ""
            let flagFollows = next.hasPrefix("-") && next != "-"
            // `-O`, or `-O` last in a cluster of curl's flags haul takes (`-LO`).
            let cluster = word.hasPrefix("-") && !word.hasPrefix("--") && word.hasSuffix("O")
            guard cluster, flagFollows, word.dropFirst().dropLast().allSatisfy({ "Lc".contains($0) }) else {
                result.append(word)
                continue
            }
            if word != "-O" { result.append(String(word.dropLast())) }
        }
        return result
    }
}
