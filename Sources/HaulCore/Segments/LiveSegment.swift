/// A piece of a segmented download as it is being fetched: how far it has got and how fast its
/// connection goes, for the details view.
public struct LiveSegment: Codable, Sendable, Equatable {
    public var segment: Segment
    /// The speed of the connection writing it; nil when no connection is.
    public var bytesPerSecond: Double?

    public init(_ segment: Segment, bytesPerSecond: Double?) {
        self.segment = segment
        self.bytesPerSecond = bytesPerSecond
    }
}
