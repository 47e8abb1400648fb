import FoundationEssentials

/// One link of a `Link` header field (RFC 8288): a target and its parameters. Mirror servers name
/// other copies of the file with `rel=duplicate` (RFC 6249) and its Metalink with `rel=describedby`.
public struct LinkHeader: Sendable, Equatable {
    /// As written between `<` and `>`; may be relative to the response's URL.
    public var target: String
    /// Parameter names lowercased, values unquoted.
    public var parameters: [String: String]

    /// Whether `rel` names `relation` (a `rel` may list several, space-separated).
    public func isRelation(_ relation: String) -> Bool {
        (parameters["rel"] ?? "").lowercased().split(separator: " ").contains { $0 == relation }
    }

    /// RFC 6249's `pri`: lower is preferred.
    public var priority: Int? { parameters["pri"].flatMap { Int($0) } }

    /// Every link in the `Link` field values `values`; what cannot be read is skipped.
    public static func parse(_ values: [String]) -> [LinkHeader] {
        values.flatMap(parse(_:))
    }

    static func parse(_ value: String) -> [LinkHeader] {
        var links: [LinkHeader] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close]).trimmed()
            rest = rest[rest.index(after: close)...]
            var parameters: [String: String] = [:]
            // Parameters up to the comma that ends this link (a quoted value may hold commas).
            while let first = rest.first(where: { $0 != " " && $0 != "\t" }), first == ";" {
                rest = rest.drop { $0 == " " || $0 == "\t" }.dropFirst()
                let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," }
                rest = rest.dropFirst(name.count)
                var parameterValue = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop { $0 == " " }
                    if rest.first == "\"" {
                        rest = rest.dropFirst()
                        var value = ""
                        var escaped = false
                        while let character = rest.first {
                            rest = rest.dropFirst()
                            if escaped {
                                value.append(character)
                                escaped = false
                            } else if character == "\\" {
                                escaped = true
                            } else if character == "\"" {
                                break
                            } else {
                                value.append(character)
                            }
                        }
                        parameterValue = value
                    } else {
                        let token = rest.prefix { $0 != ";" && $0 != "," }
                        rest = rest.dropFirst(token.count)
                        parameterValue = token.trimmed()
                    }
                }
                let key = name.trimmed().lowercased()
                if !key.isEmpty, parameters[key] == nil { parameters[key] = parameterValue }
            }
            if !target.isEmpty { links.append(LinkHeader(target: target, parameters: parameters)) }
            guard let comma = rest.firstIndex(of: ",") else { break }
            rest = rest[rest.index(after: comma)...]
        }
        return links
    }
}

/// An RFC 3230 `Digest` header's digests as checksums haul can check: SHA-256 and SHA-512 (and
/// the other SHA and MD5 names haul knows), base64 as the RFC writes them.
public enum DigestHeader {
    /// The strongest digest the field values `values` give, nil when none haul can use.
    public static func checksum(_ values: [String]) -> Checksum? {
        let strength: [ChecksumAlgorithm] = [.sha512, .sha384, .sha256, .sha224, .sha1, .md5]
        var found: [ChecksumAlgorithm: Checksum] = [:]
        for value in values {
            for item in value.split(separator: ",") {
                let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
                guard pair.count == 2, let algorithm = algorithm(pair[0]),
                    let bytes = Data(base64Encoded: pair[1]), bytes.count * 2 == algorithm.hexDigits,
                    let checksum = try? Checksum(algorithm, hex: Hex.lowercase(bytes))
                else { continue }
                found[algorithm] = found[algorithm] ?? checksum
            }
        }
        return strength.lazy.compactMap { found[$0] }.first
    }

    /// RFC 3230's names (`SHA-256`, `SHA`, `MD5`) and RFC 5843's.
    private static func algorithm(_ name: String) -> ChecksumAlgorithm? {
        name.lowercased() == "sha" ? .sha1 : ChecksumAlgorithm(name: name)
    }
}
