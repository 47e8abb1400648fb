/// Turns what a user typed (`haul pause 3f2`) into download ids.
public enum DownloadSelector {
    /// Each argument is an id or a unique prefix of one. An exact id always wins.
    public static func resolve(_ arguments: [String], among ids: [DownloadID]) throws(InputError) -> [DownloadID] {
        var result: [DownloadID] = []
        for argument in arguments {
            let key = argument.lowercased()
            if let exact = ids.first(where: { $0.rawValue == key }) {
                result.append(exact)
                continue
            }
            let matches = ids.filter { $0.rawValue.hasPrefix(key) }
            switch matches.count {
            case 1: result.append(matches[0])
            case 0: throw InputError("no download with id '\(TerminalText.sanitize(argument))' (see 'haul ls')")
            default:
                let listed = matches.prefix(5).map(\.rawValue).joined(separator: ", ")
                throw InputError("id prefix '\(TerminalText.sanitize(argument))' is ambiguous: \(listed)")
            }
        }
        var seen = Set<DownloadID>()
        return result.filter { seen.insert($0).inserted }
    }
}
