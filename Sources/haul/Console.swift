import ArgumentParser
import HaulCore
import HaulRPCClient
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the command line prints: results on stdout, problems on stderr as one `haul:` line.
/// A command the UI's command line runs prints into a ``ConsoleCapture`` instead.
enum Console {
    /// Set while the UI runs a command: what it prints is kept here, never written to the terminal.
    @TaskLocal static var capture: ConsoleCapture?

    static func out(_ line: String, terminator: String = "\n") {
        if let capture { return capture.add(line + terminator, isError: false) }
        if journal { return FileHandleWriter.stderr(JournalStream.Priority.info.prefix + line + terminator) }
        if outputIsTheBody.withLock({ $0 }) { return FileHandleWriter.stderr(line + terminator) }
        print(line, terminator: terminator)
    }

    /// Set by `haul URL -o -`, whose standard output is the file's bytes: every line goes to
    /// standard error, so nothing but the file reaches the reader.
    static let outputIsTheBody = Mutex(false)

    static func error(_ message: String) {
        FileHandleWriter.stderr("\(JournalStream.prefix(.error))haul: \(message)\n")
    }

    /// What another program haul ran said (a hook's output): not a problem of haul's.
    static func note(_ message: String) {
        FileHandleWriter.stderr("\(JournalStream.prefix(.info))haul: \(message)\n")
    }

    static func warn(_ message: String) {
        FileHandleWriter.stderr("\(JournalStream.prefix(.warning))haul: warning: \(message)\n")
    }

    /// Set by the daemon when its standard error is the journal: what it prints goes there too,
    /// each line with its priority, instead of to a log file.
    static var journal: Bool { JournalStream.stderrIsJournal && daemonLogsToJournal.withLock { $0 } }
    static let daemonLogsToJournal = Mutex(false)

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

enum FileHandleWriter {
    static func stderr(_ text: String) {
        if let capture = Console.capture { return capture.add(text, isError: true) }
        var text = text
        text.withUTF8 { _ = write(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `text` to stdout after what `print` has buffered; false when stdout is gone.
    @discardableResult
    static func stdout(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { stdout(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes` to stdout after what `print` has buffered; false when stdout is gone.
    @discardableResult
    static func stdout(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let capture = Console.capture {
            capture.add(String(decoding: bytes, as: UTF8.self), isError: false)
            return true
        }
        fflush(nil) // all streams: naming `stdout` is not concurrency-safe
        return write(STDOUT_FILENO, bytes)
    }

    private static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Exit codes, documented in `haul --help` and the README.
enum ExitStatus {
    static let downloadFailed = ExitCode(1)
    static let badInput = ExitCode(2)
    static let stateUnavailable = ExitCode(3)
    static let interrupted = ExitCode(130)
}

extension InputError {
    /// Prints the message and gives the bad-input exit code to throw.
    func reported() -> ExitCode {
        Console.error(message)
        return ExitStatus.badInput
    }
}

extension Console {
    /// Prints a failure from a command's engine session and gives the exit code to throw:
    /// bad input for an ``InputError`` (a refused command, or a lost connection), else as is.
    static func failure(_ error: any Error) -> any Error {
        if let input = error as? InputError { return input.reported() }
        if let remote = error as? RemoteFailure {
            // Another machine's engine: what it refused is bad input, what broke is unavailable.
            Console.error(remote.description)
            switch remote {
            case .refused, .unsupported: return ExitStatus.badInput
            case .unreachable, .malformed: return ExitStatus.stateUnavailable
            }
        }
        return error
    }
}
