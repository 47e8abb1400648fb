import NIOCore
import NIOHTTP1

/// A request head and its bytes as sent on the wire, checked and encoded once before a
/// connection is taken.
///
/// The plain client writes these bytes itself instead of going through NIO's
/// `HTTPRequestEncoder` and `NIOHTTPRequestHeadersValidator` (~15 K instructions a request,
/// issue 6 (b)). The checks are theirs: a header name is a token, a value has no control
/// character but tab; and the target has no space or control character, so nothing a URL or
/// a state file holds can split the request.
struct PlainRequest: Sendable {
    /// A head that cannot be sent as it is.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    let head: HTTPRequestHead
    let bytes: ByteBuffer

    init(_ head: HTTPRequestHead, allocator: ByteBufferAllocator = ByteBufferAllocator()) throws(Invalid) {
        var bytes = allocator.buffer(capacity: 256)
        guard bytes.write(head.method.rawValue, ifAll: Self.isTokenByte) else { throw Invalid(description: "invalid request method") }
        bytes.writeInteger(UInt8(ascii: " "))
        guard bytes.write(head.uri, ifAll: { $0 > 0x20 && $0 != 0x7F }) else {
            throw Invalid(description: "invalid characters in the request target")
        }
        bytes.writeStaticString(head.version == .http1_0 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n")
        for (name, value) in head.headers {
            guard bytes.write(name, ifAll: Self.isTokenByte) else { throw Invalid(description: "invalid request header name") }
            bytes.writeStaticString(": ")
            guard value.isEmpty || bytes.write(value, ifAll: { $0 >= 0x20 && $0 != 0x7F || $0 == UInt8(ascii: "\t") }) else {
                throw Invalid(description: "control characters in request header '\(name)'")
            }
            bytes.writeStaticString("\r\n")
        }
        bytes.writeStaticString("\r\n")
        self.head = head
        self.bytes = bytes
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

extension ByteBuffer {
    /// Writes `text` if it is not empty and every byte passes `isAllowed`; false, and nothing
    /// written, if not. (Over the string's contiguous UTF-8: by `String.UTF8View` a byte costs ~10×.)
    fileprivate mutating func write(_ text: String, ifAll isAllowed: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy(isAllowed) else { return false }
            writeBytes(UnsafeRawBufferPointer(bytes))
            return true
        }
    }
}
