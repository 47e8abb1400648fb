import FoundationEssentials
import Glibc
import HaulLoopback

/// The server of `haul demo`: generated files on 127.0.0.1 at a limited rate (so progress is
/// visible), every range asked for answered exactly (so pause, resume and pieces show), and a
/// few broken links.
final class DemoServer: Sendable {
    struct File: Sendable {
        var path: String
        var size: Int
        var disposition: String?
        var status = 200
    }

    private let server: LoopbackServer

    init(files: [File], bytesPerSecond: Int) throws(LoopbackError) {
        let files = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) })
        let rate = max(1024, bytesPerSecond)
        server = try LoopbackServer { request, connection in
            Self.answer(request, files: files, rate: rate, on: connection)
        }
    }

    var port: Int { server.port }

    func url(_ path: String) -> String { server.url(path) }

    func stop() { server.stop() }

    private static func answer(
        _ request: LoopbackRequest, files: [String: File], rate: Int, on connection: LoopbackConnection
    ) {
        guard let file = files[request.path] else {
            connection.send(LoopbackServer.head(404, [("Content-Length", "0")]))
            return
        }
        guard file.status == 200 else {
            connection.send(LoopbackServer.head(file.status, [("Content-Length", "0")]))
            return
        }
        var headers = [("ETag", "\"demo-\(file.size)\""), ("Accept-Ranges", "bytes")]
        if let disposition = file.disposition { headers.append(("Content-Disposition", disposition)) }
        let body: Range<Int>
        let status: Int
        if let range = request.requestedRange(count: file.size) {
            headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(file.size)"))
            (body, status) = (range, 206)
        } else {
            (body, status) = (0..<file.size, 200)
        }
        headers.append(("Content-Length", "\(body.count)"))
        guard connection.send(LoopbackServer.head(status, headers)) else { return }
        let chunk = max(1024, rate / 10)
        var offset = body.lowerBound
        while offset < body.upperBound {
            let end = min(body.upperBound, offset + chunk)
            guard connection.send(content(of: file, offset..<end)) else { return }
            offset = end
            usleep(100_000)
        }
    }

    /// Generated, repeatable content: byte i of a file is a function of i and its size.
    static func content(of file: File, _ range: Range<Int>) -> [UInt8] {
        range.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8) &+ file.size) }
    }
}
