import CLinux
import HaulCore
import HaulStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Makes completed `.part` files durable and moves them to their final names, the files that
/// finish while one group is on the disk together as the next group: a group commit.
///
/// A file is never called finished before its bytes and its name are on disk. One at a time,
/// that is two `fsync`s per file (the file, then its folder), and with many small files the disk's
/// flushes, not the network, set the pace. In a group the file system writes all the files' data
/// at once, and each folder is synced once for all of its renames. The first file of a quiet
/// moment waits for nothing: a group is only what arrived while the previous one was being made
/// durable.
final class DurablePlacement: Sendable {
    /// One file to place.
    struct Job: Sendable {
        var part: String
        var final: String
        var directory: String
    }

    private struct Waiting {
        var job: Job
        var continuation: CheckedContinuation<FinalPlacement.Result, Never>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Whether a worker is placing a group (and will take the next one).
        var placing = false
    }

    private let state = Mutex(State())

    static let shared = DurablePlacement()

    /// Syncs `job.part`, moves it to `job.final` unless something has that name, and syncs the
    /// folder when it moved; returns what became of it.
    func place(_ job: Job) async -> FinalPlacement.Result {
        await withCheckedContinuation { continuation in
            let startsWorker = state.withLock { state in
                state.waiting.append(Waiting(job: job, continuation: continuation))
                guard !state.placing else { return false }
                state.placing = true
                return true
            }
            // `FileWorkers` is started once and never stopped, so the run always takes place.
            if startsWorker {
                Task { _ = try? await FileWorkers.run { self.placeGroups() } }
            }
        }
    }

    /// Places groups until none is waiting. Runs on a worker thread.
    private func placeGroups() {
        while true {
            let group = state.withLock { state -> [Waiting] in
                if state.waiting.isEmpty { state.placing = false }
                defer { state.waiting = [] }
                return state.waiting
            }
            if group.isEmpty { return }
            let results = Self.place(group.map(\.job))
            for (waiting, result) in zip(group, results) { waiting.continuation.resume(returning: result) }
        }
    }

    /// Places `jobs` together: writes every file's data back at once, waits for each, renames
    /// each, then syncs each folder once.
    static func place(_ jobs: [Job]) -> [FinalPlacement.Result] {
        var descriptors = jobs.map { open($0.part, O_RDONLY | O_CLOEXEC) }
        defer { for fd in descriptors where fd >= 0 { close(fd) } }
        // Start every file's writeback before waiting for any: the disk gets them as one batch.
        for fd in descriptors where fd >= 0 { _ = haul_start_writeback(fd, 0, 0) }
        var results: [FinalPlacement.Result] = []
        var synced: Set<String> = []
        for (index, job) in jobs.enumerated() {
            let fd = descriptors[index]
            guard fd >= 0 else {
                results.append(.failed(FileError(operation: "open", path: job.part, code: errno)))
                continue
            }
            guard fsync(fd) == 0 else {
                results.append(.failed(FileError(operation: "sync", path: job.part, code: errno)))
                continue
            }
            close(fd)
            descriptors[index] = -1
            let result = FinalPlacement.move(job.part, to: job.final)
            if case .placed = result { synced.insert(job.directory) }
            results.append(result)
        }
        for directory in synced { AtomicFile.syncDirectory(directory) }
        return results
    }
}
