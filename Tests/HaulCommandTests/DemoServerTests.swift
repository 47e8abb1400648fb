import Foundation
import HaulLoopback
import XCTest

@testable import haul

#if canImport(Glibc)
    import Glibc
#endif

/// `haul demo`'s server answers a range as asked, so its first screen shows downloads in pieces
/// rather than "the server sent another range than the one asked for".
final class DemoServerTests: XCTestCase {
    func testARangeFromAToBIsAnsweredWithExactlyThoseBytes() throws {
        let file = DemoServer.File(path: "/f.bin", size: 100_000)
        let server = try DemoServer(files: [file], bytesPerSecond: 10 << 20)
        defer { server.stop() }
        let (head, body) = try get(server.url("/f.bin"), range: "bytes=1000-1999")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 206"), head)
        XCTAssertTrue(head.contains("Content-Range: bytes 1000-1999/100000"), head)
        XCTAssertEqual(body, DemoServer.content(of: file, 1000..<2000))

        let (tailHead, tail) = try get(server.url("/f.bin"), range: "bytes=99990-")
        XCTAssertTrue(tailHead.contains("Content-Range: bytes 99990-99999/100000"), tailHead)
        XCTAssertEqual(tail, DemoServer.content(of: file, 99990..<100_000))

        let (wholeHead, whole) = try get(server.url("/f.bin"), range: nil)
        XCTAssertTrue(wholeHead.hasPrefix("HTTP/1.1 200"), wholeHead)
        XCTAssertEqual(whole.count, 100_000)
    }

    func testRangesAreReadAsRFC9110ReadsASingleRange() {
        func range(_ value: String, _ count: Int = 1000) -> Range<Int>? {
            LoopbackRequest(method: "GET", path: "/", headers: ["range": value]).requestedRange(count: count)
        }
        XCTAssertEqual(range("bytes=10-19"), 10..<20)
        XCTAssertEqual(range("bytes=10-"), 10..<1000)
        XCTAssertEqual(range("bytes=990-5000"), 990..<1000, "a last byte past the end is the end")
        XCTAssertEqual(range("bytes=-100"), 900..<1000, "the last 100 bytes")
        XCTAssertNil(range("bytes=1000-"), "nothing there to serve")
        XCTAssertNil(range("bytes=20-10"))
        XCTAssertNil(range("items=1-2"))
    }

    /// The head and body of a GET over a plain socket (the server closes after each answer).
    private func get(_ url: String, range: String?) throws -> (String, [UInt8]) {
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let path = try XCTUnwrap(URLComponents(string: url)?.path)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(connected, 0)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let range { request += "Range: \(range)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[..<n]
        }
        let split = try XCTUnwrap(received.firstRange(of: [13, 10, 13, 10]))
        return (String(decoding: received[..<split.lowerBound], as: UTF8.self), Array(received[split.upperBound...]))
    }
}
