import HaulCore

/// When to start writing a growing file's new bytes to disk, so that the `fsync` at its end
/// finds little left to do.
///
/// Linux holds written pages in memory until the dirty total passes a share of RAM (gigabytes
/// on a large machine), so without a nudge a 1 GiB download would be written out only when it
/// is finished and synced — after the transfer instead of during it. Every `chunk` bytes the
/// writer asks for the range written since the last nudge to go out (without waiting for it).
public struct WriteBehind: Sendable, Equatable {
    /// The bytes between two nudges.
    public static let defaultChunk: Int64 = 8 << 20

    public let chunk: Int64
    /// Where the bytes not yet handed to writeback begin.
    public private(set) var mark: Int64

    public init(from offset: Int64, chunk: Int64 = WriteBehind.defaultChunk) {
        precondition(chunk > 0)
        mark = offset
        self.chunk = chunk
    }

    /// The file has been written up to `position`: the range to start writing back now, if a
    /// whole chunk has gathered since the last one.
    public mutating func written(upTo position: Int64) -> Range<Int64>? {
        guard position - mark >= chunk else { return nil }
        defer { mark = position }
        return mark..<position
    }
}
