import Foundation
import HaulCore

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
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputError("cannot read the \(what) \(shown): no such file")
            }
            data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
        }
        guard let data else { throw InputError("cannot read the \(what) \(shown): permission denied") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("the \(what) \(shown) is not UTF-8 text")
        }
        return text
    }
}
