/// What one frame of the ``TUIController`` did: enough to tell, for a slow frame, whether the
/// list was rebuilt, the names ranked, the filter searched, or only rows drawn.
public struct FrameReport: Equatable, Sendable {
    /// Downloads in the list that was filtered and sorted anew (nil: the list was kept).
    public var listed: Int?
    /// The name order was computed in this frame (its worker had not delivered it).
    public var rankedNames = false
    /// Downloads the filter looked through (nil: its result was cached).
    public var searched: Int?
    /// Screen rows drawn.
    public var rows = 0

    public init() {}

    /// One word per thing done, without spaces: `list=100003,names,search=100003,rows=38`.
    public var summary: String {
        var parts: [String] = []
        if let listed { parts.append("list=\(listed)") }
        if rankedNames { parts.append("names") }
        if let searched { parts.append("search=\(searched)") }
        parts.append("rows=\(rows)")
        return parts.joined(separator: ",")
    }
}
