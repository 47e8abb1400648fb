import FoundationEssentials
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// Replaces a file so that a crash at any moment leaves either the old or the new content:
/// a temporary file in the same directory, fsync, rename over the target, fsync the directory.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func write(_ data: some ContiguousBytes, to path: String, mode: mode_t = 0o600) throws {
        try write(to: path, mode: mode) { sink in try data.withUnsafeBytes { try sink($0) } }
    }

    /// Hands `produce` a sink that appends bytes to the temporary file, then syncs and renames:
    /// a large file is written as it is produced, never held whole in memory.
    public static func write(
        to path: String, mode: mode_t = 0o600,
        _ produce: (_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let directory = PathText.folder(of: path)
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WriteError(description: "cannot write \(temporary): \(errnoText())") }
        var closed = false
        defer { if !closed { close(fd) } }
        fchmod(fd, mode)
        do {
            try produce { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw WriteError(description: "cannot write \(temporary): \(errnoText())")
                    }
                    offset += n
                }
            }
        } catch {
            unlink(temporary)
            throw error
        }
        guard fsync(fd) == 0 else {
            let message = errnoText()
            unlink(temporary)
            throw WriteError(description: "cannot sync \(temporary): \(message)")
        }
        close(fd)
        closed = true
        if let fault = getenv("HAUL_FAULT"), String(cString: fault) == "crash-before-rename" {
            // Test hook: die the hardest way between the two steps the atomicity depends on.
            // (`getenv`, not `ProcessInfo.environment`, which copies the whole environment.)
            kill(getpid(), SIGKILL)
        }
        guard rename(temporary, path) == 0 else {
            let message = errnoText()
            unlink(temporary)
            throw WriteError(description: "cannot replace \(path): \(message)")
        }
        syncDirectory(directory)
    }

    /// Makes a rename or a new file in `directory` durable.
    public static func syncDirectory(_ directory: String) {
        let dfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        fsync(dfd)
        close(dfd)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
