import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

enum Signals {
    /// A process started by a test harness may inherit a mask that blocks every signal
    /// (swift-corelibs-foundation #4772); haul must see SIGINT and SIGTERM.
    static func unblockAll() {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
    }

    /// Calls `handler` (once per signal) on a background queue instead of dying, until the
    /// returned watch is cancelled.
    ///
    /// A real handler writes the signal's number into a pipe that a dispatch source reads, so
    /// the signal is seen whichever thread the kernel delivers it to. (A dispatch signal source
    /// over SIG_IGN saw it only when it landed on the thread that had made the source: the
    /// kernel picks any thread that does not block it, and there the signal was ignored —
    /// `haul run` started from a script ran on through SIGTERM.)
    static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) -> TerminationWatch {
        Relay.shared.add(handler)
    }

    /// Runs every registered handler as Ctrl-C would: for a stop the command decides itself (the
    /// reader of its standard output is gone). Nothing happens when no one watches.
    static func stopAsInterrupted() { Relay.shared.deliver(SIGINT) }

    /// A registered handler; ``cancel()`` removes it.
    final class TerminationWatch: Sendable {
        fileprivate let key: Int

        fileprivate init(key: Int) { self.key = key }

        func cancel() { Relay.shared.remove(key) }

        deinit { cancel() }
    }

    /// The pipe, its reader and the handlers registered now; made once, on first use.
    private final class Relay: Sendable {
        static let shared = Relay()

        /// Written once in `init`, before the signal handler that reads it is installed.
        nonisolated(unsafe) static var writeEnd: Int32 = -1

        private let handlers = Mutex<(next: Int, byKey: [Int: @Sendable (Int32) -> Void])>((0, [:]))
        /// Only held so the source lives as long as the process: set in `init`, never used again.
        nonisolated(unsafe) private let reader: any DispatchSourceRead

        private init() {
            var ends: [Int32] = [-1, -1]
            pipe(&ends)
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK) // a full pipe drops a signal rather than block the handler
            }
            Relay.writeEnd = ends[1]
            let readEnd = ends[0]
            let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
            source.setEventHandler {
                var bytes = [UInt8](repeating: 0, count: 16)
                while true {
                    let n = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    guard n > 0 else { return }
                    for signo in bytes.prefix(n) { Relay.shared.deliver(Int32(signo)) }
                }
            }
            source.resume()
            reader = source
        }

        private static let watched = [SIGINT, SIGTERM, SIGHUP]

        /// While anyone watches, the signals go into the pipe; after the last watch ends they
        /// act as they did before (Ctrl-C after the TUI has closed ends haul).
        private static func relaySignals(_ on: Bool) {
            var action = sigaction()
            if on {
                action.__sigaction_handler.sa_handler = { signo in
                    // Async-signal-safe only: one write, errno left as it was.
                    let saved = errno
                    var byte = UInt8(truncatingIfNeeded: signo)
                    _ = write(Relay.writeEnd, &byte, 1)
                    errno = saved
                }
                action.sa_flags = SA_RESTART
            } else {
                action.__sigaction_handler.sa_handler = SIG_DFL
            }
            sigemptyset(&action.sa_mask)
            for signo in watched { sigaction(signo, &action, nil) }
        }

        func add(_ handler: @escaping @Sendable (Int32) -> Void) -> TerminationWatch {
            let key = handlers.withLock { state in
                state.next += 1
                state.byKey[state.next] = handler
                if state.byKey.count == 1 { Relay.relaySignals(true) }
                return state.next
            }
            return TerminationWatch(key: key)
        }

        func deliver(_ signo: Int32) {
            for handler in handlers.withLock({ Array($0.byKey.values) }) { handler(signo) }
        }

        func remove(_ key: Int) {
            handlers.withLock { state in
                if state.byKey.removeValue(forKey: key) != nil, state.byKey.isEmpty { Relay.relaySignals(false) }
            }
        }
    }
}
