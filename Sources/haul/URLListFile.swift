import Foundation
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// `haul add -i FILE`: URLs one per line, as `wget -i` and `aria2c -i` read them (see
/// `String.urlListLines()`). `-` reads standard input.
enum URLListFile {
    static func read(_ path: String) throws(InputError) -> [String] {
        let shown = TerminalText.sanitize(path)
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputError("cannot read the URL list \(shown): no such file")
            }
            data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
        }
        guard let data else { throw InputError("cannot read the URL list \(shown): permission denied") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("the URL list \(shown) is not UTF-8 text")
        }
        return text.urlListLines()
    }
}
