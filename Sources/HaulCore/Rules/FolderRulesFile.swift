import FoundationEssentials

/// The folder rules as a text file the user may also edit (`~/.config/haul/folders`, see
/// `StatePaths.folderRules`), one `PATTERN = FOLDER` per line, `#` starting a comment. It is
/// read when a download is added, so it is configuration beside the state file, not in it:
/// `haul add` reads it before the (possibly large) state.
public enum FolderRulesFile {
    /// The rules in `text`; a line that is not a rule is named by its number.
    public static func parse(_ text: String) throws(InputError) -> FolderRules {
        var rules: [FolderRules.Rule] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmed()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.lastIndex(of: "="),
                let pattern = FolderRules.Pattern(String(line[..<equals])),
                let folder = folder(String(line[line.index(after: equals)...]))
            else {
                throw InputError(
                    "line \(index + 1) of the folder rules is not 'PATTERN = FOLDER': \(TerminalText.sanitize(line))")
            }
            rules.append(FolderRules.Rule(pattern: pattern, folder: folder))
        }
        return FolderRules(rules)
    }

    /// A rule's folder as written: absolute, or under `~`.
    public static func folder(_ text: String) -> String? {
        let folder = text.trimmed()
        guard folder.hasPrefix("/") || folder == "~" || folder.hasPrefix("~/") else { return nil }
        return folder
    }

    public static func text(_ rules: FolderRules) -> String {
        "# haul's folder rules: the first that matches a new download's name (or host:) names its folder.\n"
            + rules.rules.map { "\($0.pattern.text) = \($0.folder)\n" }.joined()
    }

    /// The rules in the file at `path`; none when there is no file.
    public static func read(_ path: String) throws(InputError) -> FolderRules {
        guard let data = FileManager.default.contents(atPath: path) else { return FolderRules() }
        return try parse(String(decoding: data, as: UTF8.self))
    }
}
