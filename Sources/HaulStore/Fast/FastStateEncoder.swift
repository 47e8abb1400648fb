import Foundation
import HaulCore

/// Writes the state document straight into bytes: the whole file is rewritten on every save,
/// and `JSONEncoder` builds a tree of the 100,000 entries first (seconds, hundreds of MiB).
/// The output is plain JSON that both ``FastStateDecoder`` and Foundation read.
enum FastStateEncoder {
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
        FastSettings.write(document.settings, into: &out)
        if let away = document.away {
            out.append(contentsOf: #","away":"#.utf8)
            out.append(contentsOf: try StateFile.encoder().encode(away))
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
        let reasons = Reasons(d)
        JSONBytes.write(to: &out, atMost: bound(d) + reasons.byteCount) { write(d, reasons, to: &$0) }
    }

    /// A download's reasons, as JSON: few downloads have one, so Foundation encodes them.
    private struct Reasons {
        var failureReason: [UInt8]?
        var lastError: [UInt8]?
        var notice: [UInt8]?

        init(_ d: Download) {
            guard d.failureReason != nil || d.lastError != nil || d.notice != nil else { return }
            let encoder = StateFile.encoder()
            failureReason = d.failureReason.flatMap { try? Array(encoder.encode($0)) }
            lastError = d.lastError.flatMap { try? Array(encoder.encode($0)) }
            notice = d.notice.flatMap { try? Array(encoder.encode($0)) }
        }

        var byteCount: Int { (failureReason?.count ?? 0) + (lastError?.count ?? 0) + (notice?.count ?? 0) }
    }

    /// The most ``write(_:to:)`` writes for `d`: the keys, every string escaped at its longest,
    /// every number and date at its longest.
    private static func bound(_ d: Download) -> Int {
        func quoted(_ text: String?) -> Int { text.map(JSONBytes.quotedBound) ?? 0 }
        var bound = 512 // the keys and punctuation (~360 bytes), numbers (6 × 20), bools (2 × 5)
        bound +=
            quoted(d.id.rawValue) + quoted(d.url) + quoted(d.directory) + quoted(d.requestedName) + quoted(d.fileName)
        bound += quoted(d.state.rawValue) + quoted(d.pauseCause?.rawValue) + quoted(d.sha256)
        bound += quoted(d.etag) + quoted(d.lastModified) + quoted(d.finalURL)
        bound += 2 * 32 // two dates: a `Double`'s description is at most 24 bytes
        for header in d.headers { bound += 24 + quoted(header.name) + quoted(header.value) }
        return bound
    }

    private static func write(_ d: Download, _ reasons: Reasons, to out: inout JSONBytes.Cursor) {
        var first = true
        /// `name` is the key with its quotes and colon (`"url":`), appended in one go.
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(name)
        }
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            out.appendQuoted(value)
        }
        func number(_ name: StaticString, _ value: (some BinaryInteger)?) {
            guard let value else { return }
            key(name)
            out.appendDecimal(value)
        }
        func json(_ name: StaticString, _ value: [UInt8]?) {
            guard let value else { return }
            key(name)
            value.withUnsafeBufferPointer { out.append($0) }
        }
        func bool(_ name: StaticString, _ value: Bool?) {
            guard let value else { return }
            key(name)
            out.append(value ? "true" : "false")
        }
        func date(_ name: StaticString, _ value: Date?) {
            guard let value else { return }
            key(name)
            let seconds = value.timeIntervalSince1970
            if seconds == seconds.rounded(), abs(seconds) < 1e15 {
                out.appendDecimal(Int64(seconds))
            } else if !out.appendTimestamp(seconds) {
                var text = seconds.description // shortest text that reads back exactly
                text.withUTF8 { out.append($0) }
            }
        }
        string(#""id":"#, d.id.rawValue)
        string(#""url":"#, d.url)
        string(#""directory":"#, d.directory)
        string(#""requestedName":"#, d.requestedName)
        string(#""fileName":"#, d.fileName)
        string(#""state":"#, d.state.rawValue)
        string(#""pauseCause":"#, d.pauseCause?.rawValue)
        json(#""failureReason":"#, reasons.failureReason)
        number(#""receivedBytes":"#, d.receivedBytes)
        number(#""totalBytes":"#, d.totalBytes)
        if !d.headers.isEmpty {
            key(#""headers":"#)
            out.append(UInt8(ascii: "["))
            for (i, header) in d.headers.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(#"{"name":"#)
                out.appendQuoted(header.name)
                out.append(#","value":"#)
                out.appendQuoted(header.value)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        string(#""sha256":"#, d.sha256)
        bool(#""allowMetered":"#, d.allowMetered)
        string(#""etag":"#, d.etag)
        string(#""lastModified":"#, d.lastModified)
        bool(#""resumable":"#, d.resumable)
        string(#""finalURL":"#, d.finalURL)
        number(#""retries":"#, d.retries)
        json(#""lastError":"#, reasons.lastError)
        json(#""notice":"#, reasons.notice)
        number(#""diskShortfall":"#, d.diskShortfall)
        number(#""queueOrder":"#, d.queueOrder)
        date(#""addedAt":"#, d.addedAt)
        date(#""finishedAt":"#, d.finishedAt)
        out.append(UInt8(ascii: "}"))
    }
}
