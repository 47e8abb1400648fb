/// `Character`'s whitespace and newline tests and the work built on them, over the bytes of
/// ASCII text, where they agree with `Character.isWhitespace` and `isNewline` without grapheme
/// breaking (`haul add -i` reads thousands of lines). Text with any other byte goes the
/// `Character` way.
public enum ASCIIText {
    /// `Character.isNewline` for an ASCII byte: LF, VT, FF, CR.
    static func isNewline(_ byte: UInt8) -> Bool { byte >= 0x0A && byte <= 0x0D }

    /// An ASCII capital letter made small; any other byte as it is.
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// `Character.isWhitespace` for an ASCII byte: tab, the newlines, space.
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte >= 0x09 && byte <= 0x0D }

    /// The part of `bytes` between leading and trailing whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = 0
        var upper = bytes.count
        while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Runs `body` over the UTF-8 of `text` if it is all ASCII; nil if not.
    static func withASCII<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        var text = text
        return text.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? body(bytes) : nil
        }
    }
}

extension String {
    /// `lowercased()`, without Unicode case mapping for ASCII text (a header name always is: a
    /// tenth of the cost, for every header of every response).
    func asciiLowercased() -> String {
        ASCIIText.withASCII(self) { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { out in
                for (i, byte) in bytes.enumerated() {
                    out[i] = ASCIIText.lowercased(byte)
                }
                return bytes.count
            }
        } ?? lowercased()
    }

    /// `trimmingCharacters(where: \.isWhitespace)`, on bytes when the text is ASCII.
    func trimmingWhitespace() -> String {
        ASCIIText.withASCII(self) { bytes in
            let range = ASCIIText.trimmed(bytes)
            return range.count == bytes.count
                ? self : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        } ?? trimmingCharacters(where: \.isWhitespace)
    }

    /// The non-blank lines of a URL list, trimmed, without `#` comment lines (`haul add -i`, as
    /// `wget -i` and `aria2c -i` read them).
    public func urlListLines() -> [String] {
        ASCIIText.withASCII(self) { bytes in
            var lines: [String] = []
            var start = 0
            for end in 0...bytes.count where end == bytes.count || ASCIIText.isNewline(bytes[end]) {
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let range = ASCIIText.trimmed(line)
                if !range.isEmpty, line[range.lowerBound] != UInt8(ascii: "#") {
                    lines.append(String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self))
                }
                start = end + 1
            }
            return lines
        }
            ?? split(whereSeparator: \.isNewline).compactMap { line in
                let trimmed = String(line).trimmingCharacters(where: \.isWhitespace)
                return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
            }
    }
}
