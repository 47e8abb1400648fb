/// The file name a server suggests in `Content-Disposition` (RFC 6266), with the
/// RFC 8187 `filename*` form preferred over plain `filename`.
///
/// The result is the server's raw suggestion; pass it through ``FileNameSanitizer``.
public enum ContentDisposition {
    public static func fileName(from header: String) -> String? {
        let parameters = parseParameters(header)
        if let extended = parameters.first(where: { $0.name == "filename*" }),
            let decoded = decodeExtended(extended.value)
        {
            return decoded
        }
        return parameters.first(where: { $0.name == "filename" })?.value
    }

    struct Parameter: Equatable {
        var name: String
        var value: String
    }

    /// `type; name=value; name="quoted \" value"` → parameters; malformed pieces are skipped.
    static func parseParameters(_ header: String) -> [Parameter] {
        var result: [Parameter] = []
        var chars = Substring(header)
        // Skip the disposition type.
        guard let semicolon = chars.firstIndex(of: ";") else { return [] }
        chars = chars[chars.index(after: semicolon)...]
        while !chars.isEmpty {
            chars = chars.drop(while: { $0 == " " || $0 == "\t" || $0 == ";" })
            guard let equals = chars.firstIndex(of: "=") else { break }
            let name = chars[..<equals].trimmingASCIIWhitespace().lowercased()
            chars = chars[chars.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            var value = ""
            if chars.first == "\"" {
                chars.removeFirst()
                var escaped = false
                while let c = chars.popFirst() {
                    if escaped {
                        value.append(c)
                        escaped = false
                        continue
                    }
                    if c == "\\" {
                        escaped = true
                        continue
                    }
                    if c == "\"" { break }
                    value.append(c)
                }
                if let semicolon = chars.firstIndex(of: ";") { chars = chars[semicolon...] } else { chars = "" }
            } else {
                let end = chars.firstIndex(of: ";") ?? chars.endIndex
                value = chars[..<end].trimmingASCIIWhitespace()
                chars = chars[end...]
            }
            if !name.isEmpty, !name.contains(" ") { result.append(Parameter(name: name, value: value)) }
        }
        return result
    }

    /// `UTF-8'lang'percent%20encoded` (RFC 8187). ISO-8859-1 is accepted too.
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        guard let bytes = percentDecode(parts[2]) else { return nil }
        switch charset {
        case "utf-8":
            return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
    }

    static func percentDecode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard let high = utf8.popFirst(), let low = utf8.popFirst(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
