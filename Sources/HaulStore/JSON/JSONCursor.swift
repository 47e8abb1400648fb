extension JSONBytes {
    /// Writes JSON into memory reserved for it beforehand (see ``write(to:atMost:_:)``), without
    /// the capacity and uniqueness checks `[UInt8].append` makes on every call, for the state
    /// file's one-pass writer (docs/PERFORMANCE.md). Each write still checks that it fits (one
    /// comparison): a bound that came out too small stops the program rather than writing past
    /// the memory.
    public struct Cursor {
        @usableFromInline var next: UnsafeMutablePointer<UInt8>
        @usableFromInline let start: UnsafeMutablePointer<UInt8>
        @usableFromInline let end: UnsafeMutablePointer<UInt8>

        @usableFromInline init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
            start = memory.baseAddress!
            end = start + memory.count
            next = start
        }

        @inlinable
        mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            precondition(next.distance(to: end) >= count, "a JSON writer wrote past its bound")
            defer { next += count }
            return next
        }

        /// Bytes written so far.
        public var count: Int { start.distance(to: next) }

        @inlinable
        public mutating func append(_ byte: UInt8) {
            reserve(1).initialize(to: byte)
        }

        @inlinable
        public mutating func append(_ text: StaticString) {
            reserve(text.utf8CodeUnitCount).initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        }

        @inlinable
        public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress else { return }
            reserve(bytes.count).initialize(from: base, count: bytes.count)
        }

        /// `text` as a JSON string literal, as ``JSONBytes/quoted(_:into:)`` writes it; takes at
        /// most ``quotedBound(_:)`` bytes.
        public mutating func appendQuoted(_ text: String) {
            append(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { bytes in
                if JSONBytes.needsEscaping(bytes) {
                    for byte in bytes { appendEscaped(byte) }
                } else {
                    append(bytes)
                }
            }
            append(UInt8(ascii: "\""))
        }

        private mutating func appendEscaped(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                append(UInt8(ascii: "\\"))
                append(byte)
            case 0x08: append("\\b")
            case 0x09: append("\\t")
            case 0x0A: append("\\n")
            case 0x0C: append("\\f")
            case 0x0D: append("\\r")
            case 0..<0x20:
                append("\\u00")
                append(JSONBytes.hexDigit(byte >> 4))
                append(JSONBytes.hexDigit(byte & 0xF))
            default: append(byte)
            }
        }

        /// `value` in decimal; at most 20 bytes (a sign and 19 digits, or 20 digits).
        @inlinable
        public mutating func appendDecimal(_ value: some BinaryInteger) {
            if value < 0 { append(UInt8(ascii: "-")) }
            appendDigits(UInt64(value.magnitude))
        }

        @usableFromInline
        mutating func appendDigits(_ value: UInt64) {
            var magnitude = value
            let digits = JSONBytes.decimalDigits(value)
            var position = reserve(digits) + digits
            repeat {
                position -= 1
                position.initialize(to: UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
        }

        /// `seconds` as ``JSONBytes/appendTimestamp(_:to:)`` writes it, or false and nothing
        /// written; at most 20 bytes.
        public mutating func appendTimestamp(_ seconds: Double) -> Bool {
            guard let (whole, fraction, decimals) = JSONBytes.timestampParts(seconds) else { return false }
            appendDecimal(whole)
            append(UInt8(ascii: "."))
            for _ in JSONBytes.decimalDigits(UInt64(fraction))..<decimals { append(UInt8(ascii: "0")) }
            appendDecimal(fraction)
            return true
        }
    }

    /// The most ``Cursor/appendQuoted(_:)`` writes for `text`: every byte escaped as `\u00XX`.
    public static func quotedBound(_ text: String) -> Int { 2 + 6 * text.utf8.count }

    /// Appends what `body` writes to `out`, which must be at most `bound` bytes.
    public static func write(to out: inout [UInt8], atMost bound: Int, _ body: (inout Cursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            var cursor = Cursor(scratch)
            body(&cursor)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<cursor.count]))
        }
    }

    /// Whether any byte of `bytes` must be escaped in a JSON string (`"`, `\`, or below 0x20).
    /// Eight bytes at a time: byte by byte this was a third of quoting a typical value.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Sets a byte's high bit where it is zero (and possibly above one that is): never misses.
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        var i = 0
        while i + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 with its high bit clear; bytes of 0x80 and above need nothing.
            if (word &- ones &* 0x20) & ~word & highs != 0 || hasZeroByte(word ^ (ones &* 0x22))
                || hasZeroByte(word ^ (ones &* 0x5C))
            {
                return true
            }
            i += 8
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            i += 1
        }
        return false
    }

    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The number of decimal digits of `value` (at least 1).
    @usableFromInline
    static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }
}
