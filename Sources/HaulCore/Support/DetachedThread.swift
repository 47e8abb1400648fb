import Glibc

/// A thread of its own for blocking work (an accept loop, a connection read line by line), so it
/// never holds one of the cooperative pool's few threads. It runs `body` once and ends.
public enum DetachedThread {
    /// The closure handed to the new thread; retained until the thread takes it.
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    public static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, work)
        // Out of threads, haul cannot serve: it stops here rather than drop the work unseen.
        precondition(started == 0, "cannot start a thread (error \(started))")
        pthread_detach(thread)
    }
}
