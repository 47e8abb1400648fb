import Glibc

/// Puts the terminal back when the process dies of a crash signal, so a bug never leaves
/// the user's shell in raw mode on the alternate screen.
enum CrashRestore {
    /// Written once in `install()` before any handler can run; read only by the handler.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var hasSaved = false

    static func install() {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        hasSaved = true
        for signo in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signo) { signo in
                // Only async-signal-safe calls: restore the tty modes, stop mouse reports (else
                // every click would type escape codes into the shell), leave the alternate
                // screen, show the cursor, then die of the same signal.
                if CrashRestore.hasSaved { tcsetattr(STDIN_FILENO, TCSANOW, &CrashRestore.saved) }
                let reset: [UInt8] = Array(
                    "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h\r\n".utf8)
                _ = reset.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                signal(signo, SIG_DFL)
                raise(signo)
            }
        }
    }
}
