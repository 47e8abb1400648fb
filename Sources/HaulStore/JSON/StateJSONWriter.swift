import FoundationEssentials
import HaulCore

/// Writes the state document straight into bytes: the whole file is rewritten on every save,
/// and `JSONEncoder` builds a tree of the 100,000 entries first (seconds, hundreds of MiB).
/// The output is plain JSON that both ``StateJSONReader`` and Foundation read.
enum StateJSONWriter {
    static func encode(_ document: StateDocument) throws -> [UInt8] {
        var all: [UInt8] = []
        try encode(document, chunkSize: .max) { all.append(contentsOf: $0) }
        return all
    }

    /// Encodes `document`, handing the bytes to `sink` about `chunkSize` at a time, so a save of
    /// 100,000 entries holds ~256 KiB of output instead of the whole ~28 MiB file. Each chunk is
    /// one `write`, kept at 256 KiB for the reason `PartFile.Writer.maxWrite` gives.
    static func encode(
        _ document: StateDocument, progress: [DownloadID: Int64] = [:], chunkSize: Int = 256 << 10,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunkSize, 256 + document.downloads.count * 320) + 4096)
        func flush() throws {
            try out.withUnsafeBytes { try sink($0) }
            out.removeAll(keepingCapacity: true)
        }
        out.append(contentsOf: #"{"version":"#.utf8)
        out.append(contentsOf: String(document.version).utf8)
        out.append(contentsOf: #","settings":"#.utf8)
        SettingsJSON.write(document.settings, into: &out)
        if let mark = document.journalMark {
            out.append(contentsOf: #","journalMark":"#.utf8)
            out.append(contentsOf: String(mark).utf8)
        }
        if let away = document.away {
            out.append(contentsOf: #","away":"#.utf8)
            out.append(contentsOf: try StateCoding.encoder().encode(away))
        }
        out.append(contentsOf: #","downloads":["#.utf8)
        // By index: `for d in downloads` copies each download (retaining its strings).
        let downloads = document.downloads
        for i in downloads.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if let received = progress[downloads[i].id] {
                var current = downloads[i]
                current.receivedBytes = received
                write(current, into: &out)
            } else {
                write(downloads[i], into: &out)
            }
            if out.count >= chunkSize { try flush() }
        }
        out.append(contentsOf: "]}".utf8)
        try flush()
    }

    static func write(_ d: Download, into out: inout [UInt8]) {
        DownloadRecord.write(d, into: &out)
    }
}
