import Foundation
import Glibc

/// A small HTTP server on 127.0.0.1 for `haul demo`: it serves generated files at a
/// limited rate (so progress is visible), honours `Range` (so pause/resume shows), and has
/// a few broken links. One thread per connection; the demo runs a handful at a time.
final class DemoServer: Sendable {
    struct File: Sendable {
        var path: String
        var size: Int
        var disposition: String?
        var status = 200
    }

    let port: Int
    private let listener: Int32
    private let files: [String: File]
    private let bytesPerSecond: Int

    init(files: [File], bytesPerSecond: Int) throws {
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) })
        self.bytesPerSecond = max(1024, bytesPerSecond)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            throw DemoError(description: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = self
            Thread.detachNewThread { server.serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let (path, range) = readRequest(fd) else { return }
        guard let file = files[path] else { return respond(fd, status: 404, headers: [], body: 0..<0, file: nil) }
        if file.status != 200 { return respond(fd, status: file.status, headers: [], body: 0..<0, file: nil) }
        var headers = [("ETag", "\"demo-\(file.size)\""), ("Accept-Ranges", "bytes")]
        if let disposition = file.disposition { headers.append(("Content-Disposition", disposition)) }
        if let start = range, start < file.size {
            headers.append(("Content-Range", "bytes \(start)-\(file.size - 1)/\(file.size)"))
            respond(fd, status: 206, headers: headers, body: start..<file.size, file: file)
        } else {
            respond(fd, status: 200, headers: headers, body: 0..<file.size, file: file)
        }
    }

    private func respond(_ fd: Int32, status: Int, headers: [(String, String)], body: Range<Int>, file: File?) {
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : status == 206 ? "Partial Content" : "Error")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard send(fd, Array(head.utf8)) else { return }
        let chunk = max(1024, bytesPerSecond / 10)
        var offset = body.lowerBound
        while offset < body.upperBound {
            let end = min(body.upperBound, offset + chunk)
            // Generated, repeatable content: byte i of a file is a function of i and its size.
            let bytes = (offset..<end).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8) &+ (file?.size ?? 0)) }
            guard send(fd, bytes) else { return }
            offset = end
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// The path and the start of a `Range: bytes=N-` header, if any.
    private func readRequest(_ fd: Int32) -> (String, Int?)? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 || data.count > 65536 { return nil }
            data += buffer[..<n]
        }
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var start: Int?
        for line in lines where line.lowercased().hasPrefix("range: bytes=") {
            start = Int(line.dropFirst("range: bytes=".count).split(separator: "-").first ?? "")
        }
        return (String(parts[1]), start)
    }
}

struct DemoError: Error, CustomStringConvertible {
    let description: String
}
