/// A `magnet:` link to a torrent, checked before the engine sees it: a link names its torrent by
/// an info hash (`urn:btih:` 40 hex or 32 base32 digits for v1, `urn:btmh:1220` and 64 hex digits
/// for v2, both for a hybrid); what else it says (name, trackers, web seeds) is libtorrent's to read.
public enum MagnetLink {
    /// Whether `text` is meant as a magnet link (so a bad one gets a magnet's reason, not a URL's).
    public static func isMagnet(_ text: String) -> Bool {
        // Compared as ASCII bytes, any case: every name shown from a URL asks first.
        var bytes = text.utf8.makeIterator()
        for expected in "magnet:".utf8 {
            guard let byte = bytes.next() else { return false }
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            guard folded == expected else { return false }
        }
        return true
    }

    /// `text` trimmed, when it is a magnet link naming at least one well-formed info hash.
    public static func validate(_ text: String) throws(InputError) -> String {
        let link = text.trimmingCharacters(where: \.isWhitespace)
        let shown = TerminalText.sanitize(link)
        guard !link.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7f }) else {
            throw InputError("'\(shown)' is not a magnet link (it contains spaces or control characters)")
        }
        guard isMagnet(link), let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else {
            throw InputError("'\(shown)' is not a magnet link (expected magnet:?xt=urn:btih:…)")
        }
        var hashes = 0
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased().hasPrefix("xt") else { continue }
            let value = parts[1].lowercased()
            if value.hasPrefix("urn:btih:") {
                let hash = value.dropFirst(9)
                guard
                    (hash.count == 40 && hash.allSatisfy(\.isHexDigit))
                        || (hash.count == 32 && hash.allSatisfy(isBase32))
                else { throw InputError("the info hash in '\(shown)' is not 40 hex or 32 base32 digits") }
                hashes += 1
            } else if value.hasPrefix("urn:btmh:") {
                let hash = value.dropFirst(9)
                guard hash.count == 68, hash.hasPrefix("1220"), hash.allSatisfy(\.isHexDigit) else {
                    throw InputError("the v2 info hash in '\(shown)' is not 1220 and 64 hex digits")
                }
                hashes += 1
            }
        }
        guard hashes > 0 else { throw InputError("'\(shown)' names no torrent (it has no xt=urn:btih: or urn:btmh:)") }
        return link
    }

    /// Whether a response is a torrent file to follow (as aria2's `--follow-torrent`): its
    /// `Content-Type` says so, or the URL's path ends in `.torrent`.
    public static func servesTorrent(contentType: String?, url: String) -> Bool {
        let type = contentType?.split(separator: ";").first?.trimmed().lowercased()
        if type == "application/x-bittorrent" { return true }
        // A path can end in `.torrent` only if the URL has it somewhere: most have not, and
        // splitting a URL costs more than looking (it is asked for every file of a list).
        guard type == nil || type == "application/octet-stream", url.lowercased().contains(".torrent") else {
            return false
        }
        return (URLParts(url)?.path ?? "").lowercased().hasSuffix(".torrent")
    }

    /// The trackers a magnet link names (`tr`), decoded, in order.
    public static func trackers(_ link: String) -> [String] {
        guard let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        return query.split(separator: "&").filter { $0.hasPrefix("tr=") }.map { pair in
            let value = String(pair.dropFirst(3))
            return ContentDisposition.percentDecode(value).map { String(decoding: $0, as: UTF8.self) } ?? value
        }
    }

    /// The name a magnet link gives its torrent (`dn`), decoded; nil when it gives none.
    public static func displayName(_ link: String) -> String? {
        guard let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("dn=") {
            let value = String(pair.dropFirst(3).map { $0 == "+" ? " " : $0 })
            guard let bytes = ContentDisposition.percentDecode(value) else { return value }
            let name = String(decoding: bytes, as: UTF8.self)
            return name.isEmpty ? nil : name
        }
        return nil
    }

    private static func isBase32(_ c: Character) -> Bool {
        ("a"..."z").contains(c) || ("2"..."7").contains(c)
    }
}
