import Synchronization

/// Waiting for work with a time limit.
public enum TimeLimit {
    /// Runs `work` and waits for it at most `limit`: true when it finished in time. Past the
    /// limit the caller goes on and `work` is left to end by itself (nothing waits for it).
    public static func run(_ limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let first = FirstResume()
        return await withCheckedContinuation { continuation in
            first.set(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                // Cancelled: the work finished (and has answered, or is about to).
                guard !Task.isCancelled else { return }
                first.resume(false)
            }
            Task {
                await work()
                first.resume(true)
                timer.cancel()
            }
        }
    }

    /// A continuation resumed by whichever of two tasks gets there first.
    private final class FirstResume: Sendable {
        private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

        func set(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation.withLock { $0 = continuation } }

        func resume(_ finished: Bool) { continuation.withLock { $0.take() }?.resume(returning: finished) }
    }
}
