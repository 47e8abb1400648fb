import FoundationEssentials
import Glibc
import HaulCore
import HaulStore

/// `haul add -i FILE`: one URL per line, or aria2's input-file format (see ``InputFile``). `-`
/// reads standard input.
enum URLListFile {
    static func read(_ path: String) throws(InputError) -> InputFile {
        try InputFile(parsing: TextFile.read(path, what: "URL list"))
    }
}

/// Small text files the user names (`-i`, `--checksum-file`, `--load-cookies`): read whole, as
/// UTF-8, with one sentence when they cannot be.
enum TextFile {
    static func read(_ path: String, what: String) throws(InputError) -> String {
        let shown = TerminalText.sanitize(path)
        let data: Data
        do throws(FileContents.Failure) {
            var isDirectory = false
            if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
                throw FileContents.Failure(code: EISDIR)
            }
            data = try FileContents.read(path == "-" ? "/dev/stdin" : path)
        } catch {
            throw InputError("cannot read the \(what) \(shown): \(error.explanation)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("the \(what) \(shown) is not UTF-8 text")
        }
        return text
    }
}
