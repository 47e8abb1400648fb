import HaulCore

/// `-o` (or wget's `-O`) as people give it: a file name, or a path whose folder is where the
/// file goes. A relative folder is under `-d` when one is given (as aria2c's `--out` is under
/// `--dir`), else under the current folder (as wget's and curl's are).
struct OutputPath: Equatable {
    /// The folder part, as given (without the last '/'), when the path has one.
    let folder: String?
    /// The file's name; the add path checks that it is a plain one.
    let name: String

    init(_ text: String) throws(InputError) {
        if text == "-" {
            throw InputError(
                "-o - (standard output) is for 'haul URL -o -'; here downloads go into files that can resume: give a "
                    + "file name")
        }
        guard text.contains("/") else {
            (folder, name) = (nil, text)
            return
        }
        let last = PathText.lastComponent(of: text)
        guard !last.isEmpty else {
            throw InputError(
                "'\(TerminalText.sanitize(text))' names a folder: give the folder with -d and the file's name with -o")
        }
        (folder, name) = (PathText.folder(of: text), last)
    }

    /// Where the file goes: the path's own folder when absolute, else that folder under
    /// `directory` (the `-d` given); `directory` when the path has no folder.
    func directory(under directory: String?) -> String? {
        guard let folder else { return directory }
        guard !folder.hasPrefix("/"), let directory else { return folder }
        return directory.hasSuffix("/") ? directory + folder : directory + "/" + folder
    }
}
