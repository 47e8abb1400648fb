import HaulCore
import NIOCore

/// What a response body is written into: the download's `.part` file in the engine.
///
/// Called on the event loop that reads the body, so a write must not wait for anything but the
/// file system.
public protocol BodyDestination: Sendable {
    /// Writes `buffer` at `offset` of a file that ends at `fileSize` (when known). Throws what
    /// stops the download: a full disk as a ``TransferFailure`` that says how much room is missing.
    func write(_ buffer: ByteBuffer, at offset: Int64, fileSize: Int64?) throws

    /// Asks the system to start writing `range` back to disk (see ``WriteBehind``).
    func startWriteback(_ range: Range<Int64>)
}

/// What holds a body's reads to the speed limits and the metered data budget.
///
/// The sink counts every byte it writes here and waits as long as ``consume(_:)`` says before it
/// reads more, so TCP's window holds the server back.
public protocol ReadPacing: Sendable {
    /// The lowest speed limit in force, in bytes per second; nil when there is none.
    var rate: Double? { get }

    /// Takes `bytes` just read from the speed limits; returns the wait before reading more.
    func consume(_ bytes: Int) -> Duration

    /// Takes up to `bytes` just read from the data budget; returns how many may be written. The
    /// rest is offered again a moment later.
    func takeFromBudget(_ bytes: Int) -> Int

    /// Counts `bytes` against the data budget that were written already (read ahead before the
    /// transfer chose to write the body).
    func countAgainstBudget(_ bytes: Int)
}

/// No limit and no budget.
public struct UnpacedReads: ReadPacing {
    public init() {}
    public var rate: Double? { nil }
    public func consume(_ bytes: Int) -> Duration { .zero }
    public func takeFromBudget(_ bytes: Int) -> Int { bytes }
    public func countAgainstBudget(_ bytes: Int) {}
}
