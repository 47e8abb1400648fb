import AsyncHTTPClient
import HaulCore
import NIOCore
import NIOHTTP1

/// AsyncHTTPClient (TLS and proxies) delivers its response to the same sink as `CleartextHTTPClient`.
extension ResponseSink: HTTPClientResponseDelegate {
    typealias Response = Int64

    func didReceiveHead(task: HTTPClient.Task<Int64>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        receiveHead(head)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Int64>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        receiveBodyPart(buffer)
    }

    func didReceiveError(task: HTTPClient.Task<Int64>, _ error: Error) {
        fail(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Int64>) throws -> Int64 {
        finish()
        return position
    }
}
