import Foundation
import HaulCore

/// A list of downloads as JSON bytes, in the state file's own form and on one line: how a
/// daemon hands its downloads to a client (`haul ls`, a UI attaching; see `WireSnapshot`).
/// Written and read in one pass, like the state file (docs/PERFORMANCE.md).
public enum DownloadListJSON {
    public static func encode(_ downloads: [Download]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + downloads.count * 320)
        out.append(UInt8(ascii: "["))
        for i in downloads.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            StateJSONWriter.write(downloads[i], into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Reads what ``encode(_:)`` wrote, or any JSON array of downloads (through Foundation when the
    /// one-pass reader meets something it does not read).
    public static func decode(_ bytes: [UInt8]) throws -> [Download] {
        let fast: [Download]? = bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            var downloads: [Download] = []
            var unknown = Set<String>()
            var context = DownloadReadContext()
            do throws(JSONScanner.Unsupported) {
                try scanner.array { s throws(JSONScanner.Unsupported) in
                    downloads.append(
                        try StateJSONReader.download(&s, unknown: &unknown, context: &context))
                }
                return scanner.isAtEnd ? downloads : nil
            } catch {
                return nil
            }
        }
        return try fast ?? StateCoding.decoder().decode([Download].self, from: Data(bytes))
    }
}
