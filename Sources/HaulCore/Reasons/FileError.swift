import FoundationEssentials
import Glibc

/// A failed file operation, with errno kept so disk-full can be told apart.
public struct FileError: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    /// An exclusive create found something by that name.
    public var isTaken: Bool { code == EEXIST }

    public var description: String {
        if isDiskFull { return "disk full while writing \(path)" }
        if code == ELOOP {
            return "cannot \(operation) \(path): it is a symbolic link (haul writes only into files of its own)"
        }
        return "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }

    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }
}
