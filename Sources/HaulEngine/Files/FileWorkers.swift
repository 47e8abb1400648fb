import NIOPosix

/// Threads for the blocking file calls at the end of a transfer (`fsync`, the rename, a
/// checksum's reads), so that none of them holds one of Swift's cooperative threads.
///
/// There is one cooperative thread per core. A 100 KiB file's `fsync` on a VM disk takes a few
/// milliseconds; on two cores, two transfers in theirs stopped every other transfer and the engine
/// meanwhile, and the fsyncs of eight downloads at a time ran two by two.
enum FileWorkers {
    /// Enough for `-j 8` to wait on the disk all at once; with more at a time the calls queue.
    /// Finished files are placed a group at a time on one of them (`DurablePlacement`).
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()

    /// Runs `body` on a worker thread and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
