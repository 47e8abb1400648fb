import Foundation
import HaulLoopback

extension FaultServer {
    /// The bytes a request's `Range` asks for of a body of `count` bytes; nil without a usable range.
    public static func requestedRange(_ request: Request, count: Int) -> Range<Int>? {
        request.requestedRange(count: count)
    }

    /// `body` served as a server that caps each connection's speed serves it: the range asked
    /// for (206), else the whole body (200, with `Accept-Ranges`), `chunk` bytes at a time with
    /// `pause` seconds after each. `lie` changes what is sent: another `Content-Range`, or fewer
    /// bytes than the head promises.
    public static func throttled(
        _ body: [UInt8], for request: Request, etag: String? = "\"v1\"", chunk: Int = 64 * 1024,
        pause: Double = 0.02, lie: Lie? = nil
    ) -> [Step] {
        let range = requestedRange(request, count: body.count)
        var headers = [("Accept-Ranges", "bytes")]
        if let etag { headers.insert(("ETag", etag), at: 0) }
        var bytes = range.map { Array(body[$0]) } ?? body
        let status = range == nil ? 200 : 206
        if let range {
            var shown = range
            if case .shiftedRange(let by) = lie { shown = (range.lowerBound + by)..<(range.upperBound + by) }
            headers.append(("Content-Range", "bytes \(shown.lowerBound)-\(shown.upperBound - 1)/\(body.count)"))
        }
        switch lie {
        case .cutShort(let fraction)?:
            // No length: the body ends where the connection does, short of the range.
            bytes = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
        default:
            headers.append(("Content-Length", "\(bytes.count)"))
        }
        var steps: [Step] = [.send(head(status, headers))]
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            steps.append(.send(Array(bytes[offset..<end])))
            if pause > 0 { steps.append(.sleep(pause)) }
            offset = end
        }
        return steps
    }

    /// How a throttled response departs from the truth.
    public enum Lie: Sendable {
        /// `Content-Range` names bytes this much later than those sent.
        case shiftedRange(by: Int)
        /// Only this fraction of the range is sent, and the connection closes.
        case cutShort(Double)
    }
}
