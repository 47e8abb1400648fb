import FoundationEssentials
import HaulCore

/// A list of downloads as JSON bytes, in the state file's own form and on one line: how a
/// daemon hands its downloads to a client (`haul ls`, a UI attaching; see `WireSnapshot`).
/// Written and read in one pass, like the state file (docs/PERFORMANCE.md).
public enum DownloadListJSON {
    public static func encode(_ downloads: [Download]) -> [UInt8] {
        write(count: downloads.count) { each in for i in downloads.indices { each(downloads[i]) } }
    }

    /// The list's downloads as one JSON array; throws what reading an encoded list throws.
    public static func encode(_ downloads: DownloadList) throws -> [UInt8] {
        try write(count: downloads.count) { each in try downloads.forEachDownload(each) }
    }

    private static func write(
        count: Int, _ downloads: (_ each: (Download) -> Void) throws -> Void
    ) rethrows -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + count * 320)
        out.append(UInt8(ascii: "["))
        var first = true
        try downloads { d in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            StateJSONWriter.write(d, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Reads what ``encode(_:)`` wrote, or any JSON array of downloads (through Foundation when the
    /// one-pass reader meets something it does not read).
    public static func decode(_ bytes: [UInt8]) throws -> [Download] {
        var downloads: [Download] = []
        try forEach(in: bytes) { downloads.append($0) }
        return downloads
    }

    /// Hands each download of the list in `bytes` to `body`, in order, without keeping them.
    public static func forEach(in bytes: [UInt8], _ body: (Download) -> Void) throws {
        var handed = 0
        let whole: Bool = bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            var unknown = Set<String>()
            var context = DownloadReadContext()
            do throws(JSONScanner.Unsupported) {
                try scanner.array { s throws(JSONScanner.Unsupported) in
                    body(try StateJSONReader.download(&s, unknown: &unknown, context: &context))
                    handed += 1
                }
                return scanner.isAtEnd
            } catch {
                return false
            }
        }
        guard !whole else { return }
        // Foundation reads what the one-pass reader does not; what was handed out already reads
        // the same either way, so it goes on after it.
        let all = try StateCoding.decoder().decode([Download].self, from: Data(bytes))
        for d in all.dropFirst(handed) { body(d) }
    }
}
