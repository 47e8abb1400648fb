import HaulCore
import NIOCore
import NIOPosix
import Synchronization

/// Runs transfers' tasks on the event loops their connections live on.
///
/// A transfer's task on Swift's global pool would cross threads at every step of a request (the
/// request to its connection's event loop, the response head back to the pool), and a small
/// file's wake-ups would cost more than its work. A transfer runs on one lane, an event loop used
/// as its task executor, and its cleartext connections are taken on that loop, so a small file's
/// request, response and placing stay on one thread.
public final class TransferLanes: Sendable {
    private let lanes: [Lane]

    init(group: MultiThreadedEventLoopGroup) {
        lanes = group.makeIterator().map(Lane.init)
    }

    /// Runs `body` on the lane with the fewest transfers (the calling thread's own among equals:
    /// a transfer that ended starts the next where it ran, without waking another thread).
    public func run(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        var chosen = lanes[0]
        for lane in lanes {
            let load = lane.running.load(ordering: .relaxed)
            let best = chosen.running.load(ordering: .relaxed)
            if load < best || (load == best && lane.loop.inEventLoop) { chosen = lane }
        }
        let lane = chosen
        lane.running.add(1, ordering: .relaxed)
        return Task(executorPreference: lane) {
            await body()
            lane.running.subtract(1, ordering: .relaxed)
        }
    }

    /// One event loop as a task executor.
    final class Lane: TaskExecutor, Sendable {
        let loop: EventLoop
        /// Transfers running on this lane.
        let running = Atomic<Int>(0)

        init(_ loop: EventLoop) { self.loop = loop }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }
}
