import FoundationEssentials
import HaulCore
import HaulStore

/// The saved remotes on disk (`StatePaths.remotes`): JSON, mode 0600 because secrets are in it.
enum SavedRemotesFile {
    static func read(_ path: String) throws(InputError) -> SavedRemotes {
        guard let data = FileManager.default.contents(atPath: path) else { return SavedRemotes() }
        do {
            return try JSONDecoder().decode(SavedRemotes.self, from: data)
        } catch {
            throw InputError("\(TerminalText.sanitize(path)) is not a list of remotes haul can read; fix or delete it")
        }
    }

    static func write(_ remotes: SavedRemotes, to path: String) throws(InputError) {
        do {
            let directory = PathText.folder(of: path)
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(remotes), to: path, mode: 0o600)
        } catch {
            throw InputError("cannot save the remotes in \(TerminalText.sanitize(path)): \(error)")
        }
    }
}
