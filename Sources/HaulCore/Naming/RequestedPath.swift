/// What a download is asked to be saved as (`-o`, aria2's `out`, the add dialog's name): a plain
/// file name, or a path of folders below the download's folder and the name, as aria2 takes
/// `out` ("isos/debian.iso"). Never a way out of that folder: no `..`, no absolute path.
public struct RequestedPath: Equatable, Sendable {
    /// Folders below the download's folder, outermost first; empty for a plain name.
    public let folders: [String]
    public let name: String

    public init(_ text: String) throws(InputError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let shown = TerminalText.sanitize(text)
        if parts.contains("..") {
            throw InputError("'\(shown)' leads out of the download's folder: give a name, or folders inside it")
        }
        // An empty part is a leading, doubled or trailing '/'.
        guard let name = parts.last, parts.allSatisfy({ FileNameSanitizer.sanitize($0) == $0 }) else {
            throw InputError(
                "'\(shown)' is not a plain file name (no leading dot, no control characters; '/' only between "
                    + "folder names)")
        }
        folders = parts.dropLast()
        self.name = name
    }

    /// The folder the file goes in: `directory` with ``folders`` below it.
    public func directory(in directory: String) -> String { folders.reduce(directory, PathText.joined) }
}
