import HaulCore

/// A minimal forward-only JSON reader over UTF-8 bytes, for the state file's one-pass reader.
///
/// It reads exactly the shapes haul writes; anything else throws ``Unsupported`` and the caller
/// falls back to Foundation's decoder (which also does the repairing).
public struct JSONScanner {
    public struct Unsupported: Error {
        public init() {}
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool {
        mutating get {
            skipWhitespace()
            return index == bytes.count
        }
    }

    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    public mutating func peek() throws(Unsupported) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw Unsupported() }
        return bytes[index]
    }

    public mutating func expect(_ byte: UInt8) throws(Unsupported) {
        guard try peek() == byte else { throw Unsupported() }
        index += 1
    }

    /// Consumes `byte` if it is next.
    public mutating func take(_ byte: UInt8) throws(Unsupported) -> Bool {
        guard try peek() == byte else { return false }
        index += 1
        return true
    }

    /// Calls `body` with each key of an object as raw bytes (no `String` made); `body` must read the value.
    public mutating func objectKeys(_ body: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Void)
        throws(Unsupported)
    {
        try expect(UInt8(ascii: "{"))
        if try take(UInt8(ascii: "}")) { return }
        repeat {
            try expect(UInt8(ascii: "\""))
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] != UInt8(ascii: "\\") else { throw Unsupported() } // haul's keys have no escapes
                index += 1
            }
            guard index < bytes.count else { throw Unsupported() }
            let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
        } while try take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Calls `body` with each key of an object; `body` must read the value.
    public mutating func object(_ body: (inout JSONScanner, String) throws(Unsupported) -> Void) throws(Unsupported) {
        try expect(UInt8(ascii: "{"))
        if try take(UInt8(ascii: "}")) { return }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
        } while try take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Calls `body` for each element of an array; `body` must read the element.
    public mutating func array(_ body: (inout JSONScanner) throws(Unsupported) -> Void) throws(Unsupported) {
        try expect(UInt8(ascii: "["))
        if try take(UInt8(ascii: "]")) { return }
        repeat {
            try body(&self)
        } while try take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// `null` consumed: true; otherwise nothing is consumed.
    public mutating func null() throws(Unsupported) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    public mutating func bool() throws(Unsupported) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw Unsupported()
        }
    }

    public mutating func string() throws(Unsupported) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                return try escapedString(from: start)
            case 0..<0x20:
                throw Unsupported()
            default:
                index += 1
            }
        }
        throw Unsupported()
    }

    /// The next string, or `candidate` itself when its bytes are the same, unescaped: a
    /// directory every download repeats (or a final URL that is the URL) then shares one
    /// storage instead of being decoded and allocated again.
    public mutating func string(sameAs candidate: String?) throws(Unsupported) -> String {
        if var candidate, try peek() == UInt8(ascii: "\"") {
            let first = index + 1
            let matches = candidate.withUTF8 { text in
                guard first + text.count < bytes.count, bytes[first + text.count] == UInt8(ascii: "\"") else {
                    return false
                }
                for k in 0..<text.count {
                    let byte = text[k]
                    guard byte == bytes[first + k], byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
                    else { return false }
                }
                return true
            }
            if matches {
                index = first + candidate.utf8.count + 1
                return candidate
            }
        }
        return try string()
    }

    public mutating func int64() throws(Unsupported) -> Int64 {
        _ = try peek()
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(bytes[index] - 0x30))
            guard !o1, !o2 else { throw Unsupported() }
            value = a
            index += 1
        }
        guard index > start else { throw Unsupported() }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw Unsupported()
        }
        return negative ? -value : value
    }

    public mutating func double() throws(Unsupported) -> Double {
        _ = try peek()
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
                UInt8(ascii: "E"):
                index += 1
            default:
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let value = ExactDecimal.parse(text) ?? Double(String(decoding: text, as: UTF8.self)) else {
                    throw Unsupported()
                }
                return value
            }
        }
        throw Unsupported()
    }

    /// Skips any value, returning the bytes it spanned (to hand to Foundation for rare fields).
    public mutating func rawValue() throws(Unsupported) -> UnsafeBufferPointer<UInt8> {
        let start: Int
        switch try peek() {
        case UInt8(ascii: "{"):
            start = index
            try object { scanner, _ throws(Unsupported) in _ = try scanner.rawValue() }
        case UInt8(ascii: "["):
            start = index
            try array { scanner throws(Unsupported) in _ = try scanner.rawValue() }
        case UInt8(ascii: "\""):
            start = index
            _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            start = index
            _ = try bool()
        case UInt8(ascii: "n"):
            start = index
            _ = try null()
        default:
            start = index
            _ = try double()
        }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    private mutating func literal(_ word: StaticString) throws(Unsupported) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Unsupported() }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw Unsupported() }
        index += count
    }

    private mutating func escapedString(from start: Int) throws(Unsupported) -> String {
        var out: [UInt8] = []
        // Room for what came before the escape and a short rest (an ETag's quotes), so that
        // appending does not grow the array from nothing a byte at a time.
        out.reserveCapacity(index - start + 48)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Unsupported() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw Unsupported() }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Unsupported() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw Unsupported() }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw Unsupported()
                }
            case 0..<0x20:
                throw Unsupported()
            default:
                out.append(byte)
            }
        }
        throw Unsupported()
    }

    private mutating func hex4() throws(Unsupported) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Unsupported() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            index += 1
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw Unsupported()
            }
            value = value << 4 | digit
        }
        return value
    }
}
