#if canImport(Glibc)
import Glibc
#endif
import Dispatch

enum Signals {
    /// A process started by a test harness may inherit a mask that blocks every signal
    /// (swift-corelibs-foundation #4772); haul must see SIGINT and SIGTERM.
    static func unblockAll() {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
    }

    /// Calls `handler` (once per signal) on a background queue instead of dying.
    static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { signo in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { handler(signo) }
            source.resume()
            return source
        }
    }
}
