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
        // Built as an array and copied into the buffer once: `ByteBuffer`'s writes check its
        // capacity and uniqueness on every call (~230 instructions for each separator).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        guard bytes.append(head.method.rawValue, ifAll: HTTPSyntax.isTokenByte) else {
            throw Invalid(description: "invalid request method")
        }
        bytes.append(UInt8(ascii: " "))
        guard bytes.append(head.uri, ifAll: { $0 > 0x20 && $0 != 0x7F }) else {
            throw Invalid(description: "invalid characters in the request target")
        }
        bytes.append(head.version == .http1_0 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n")
        for (name, value) in head.headers {
            guard bytes.append(name, ifAll: HTTPSyntax.isTokenByte) else {
                throw Invalid(description: "invalid request header name")
            }
            bytes.append(": ")
            guard value.isEmpty || bytes.append(value, ifAll: HTTPSyntax.isFieldValueByte) else {
                throw Invalid(description: "control characters in request header '\(name)'")
            }
            bytes.append("\r\n")
        }
        bytes.append("\r\n")
        self.head = head
        self.bytes = allocator.buffer(bytes: bytes)
    }
}

extension [UInt8] {
    /// Appends `text` if it is not empty and every byte passes `isAllowed`; false, and nothing
    /// appended, if not. (Over the string's contiguous UTF-8: by `String.UTF8View` a byte costs ~10×.)
    fileprivate mutating func append(_ text: String, ifAll isAllowed: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy(isAllowed) else { return false }
            append(contentsOf: bytes)
            return true
        }
    }

    fileprivate mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
