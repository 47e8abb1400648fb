import HaulCore

/// A parsed `Content-Range` response header (RFC 9110 §14.4).
public struct ContentRange: Equatable, Sendable {
    /// First and last byte of the part sent; nil for the `bytes */N` form of a 416.
    public var first: Int64?
    public var last: Int64?
    /// The full size, nil for `*`.
    public var complete: Int64?

    public init(first: Int64?, last: Int64?, complete: Int64?) {
        self.first = first
        self.last = last
        self.complete = complete
    }

    public init?(_ header: String) {
        let text = header.trimmingASCIIWhitespace()
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6).trimmingASCIIWhitespace()
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] == "*" {
            complete = nil
        } else {
            guard let size = Int64(halves[1]), size >= 0 else { return nil }
            complete = size
        }
        if halves[0] == "*" {
            first = nil
            last = nil
            guard complete != nil else { return nil }
        } else {
            let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let a = Int64(bounds[0]), let b = Int64(bounds[1]), a >= 0, b >= a else {
                return nil
            }
            if let complete, b >= complete { return nil }
            first = a
            last = b
        }
    }
}
