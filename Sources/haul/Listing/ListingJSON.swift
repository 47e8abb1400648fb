import FoundationEssentials
import HaulCore
import HaulStore

/// What `haul ls --json` prints: an array with one object per download, keys sorted, nulls
/// written, dates in ISO 8601, URLs with their passwords hidden — the format scripts read,
/// laid out as `JSONEncoder` lays it out (`.prettyPrinted`, `.sortedKeys`, `.withoutEscapingSlashes`).
///
/// Written straight into bytes, a chunk at a time: through `JSONEncoder` a long list misses the
/// one-second goal for `haul ls` (docs/PERFORMANCE.md).
public enum ListingJSON {
    /// Hands the listing of `downloads` (ending in a newline) to `sink`, about `chunkSize` bytes at a time.
    public static func write(
        _ downloads: [Download], now: Date, chunkSize: Int = 1 << 20, proxy: (Download) -> String? = { _ in nil },
        files: (Download) -> [TorrentDetails.File]? = { _ in nil }, to sink: (UnsafeRawBufferPointer) -> Void
    ) {
        write(count: downloads.count, now: now, chunkSize: chunkSize, proxy: proxy, files: files, sink) { each in
            for i in downloads.indices { each(downloads[i]) }
        }
    }

    /// The same for a list that may be decoded as it is read; throws what reading it throws.
    /// `proxy` names the proxy a download goes through (its password hidden), nil for none;
    /// `files` a torrent's files; a retry's notice counts down from `now`.
    public static func write(
        _ downloads: DownloadList, now: Date, chunkSize: Int = 1 << 20,
        proxy: (Download) -> String? = { _ in nil }, files: (Download) -> [TorrentDetails.File]? = { _ in nil },
        to sink: (UnsafeRawBufferPointer) -> Void
    ) throws {
        try write(count: downloads.count, now: now, chunkSize: chunkSize, proxy: proxy, files: files, sink) { each in
            try downloads.forEachDownload(each)
        }
    }

    private static func write(
        count: Int, now: Date, chunkSize: Int, proxy: (Download) -> String?,
        files: (Download) -> [TorrentDetails.File]?, _ sink: (UnsafeRawBufferPointer) -> Void,
        _ downloads: (_ each: (Download) -> Void) throws -> Void
    ) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunkSize, 64 + count * 700) + 4096)
        out.append(contentsOf: "[\n".utf8)
        if count == 0 { out.append(UInt8(ascii: "\n")) }
        var written = 0
        // The sink, `proxy` and `files` are only called while `downloads` runs; none outlives this call.
        try withoutActuallyEscaping(sink) { sink in
            try withoutActuallyEscaping(proxy) { proxy in
                try withoutActuallyEscaping(files) { files in
                    try downloads { d in
                        append(d, proxy: proxy(d), files: d.isTorrent ? files(d) : nil, now: now, to: &out)
                        written += 1
                        out.append(contentsOf: (written == count ? "\n" : ",\n").utf8)
                        if out.count >= chunkSize {
                            out.withUnsafeBytes { sink($0) }
                            out.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
        }
        out.append(contentsOf: "]\n".utf8)
        out.withUnsafeBytes { sink($0) }
    }

    /// The whole listing as a string (for tests and small lists).
    public static func text(_ downloads: [Download], now: Date) -> String {
        var all: [UInt8] = []
        write(downloads, now: now) { all.append(contentsOf: $0) }
        return String(decoding: all, as: UTF8.self)
    }

    private static func append(
        _ d: Download, proxy: String?, files: [TorrentDetails.File]?, now: Date, to out: inout [UInt8]
    ) {
        out.append(contentsOf: "  {\n".utf8)
        var first = true
        /// `name` is the key with its quotes and separator (`"url" : `).
        func key(_ name: StaticString) {
            if !first { out.append(contentsOf: ",\n".utf8) }
            first = false
            out.append(contentsOf: "    ".utf8)
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        func null() { out.append(contentsOf: "null".utf8) }
        func string(_ name: StaticString, _ value: String?) {
            key(name)
            if let value { JSONBytes.quoted(value, into: &out) } else { null() }
        }
        func number(_ name: StaticString, _ value: (some BinaryInteger)?) {
            key(name)
            if let value { JSONBytes.appendDecimal(value, to: &out) } else { null() }
        }
        func bool(_ name: StaticString, _ value: Bool?) {
            key(name)
            if let value { out.append(contentsOf: (value ? "true" : "false").utf8) } else { null() }
        }
        func date(_ name: StaticString, _ value: Date?) {
            key(name)
            if let value { JSONBytes.appendISO8601(value, to: &out) } else { null() }
        }
        // In sorted order.
        date(#""addedAt" : "#, d.addedAt)
        bool(#""allowMetered" : "#, d.allowMetered)
        string(#""checksum" : "#, d.checksum?.text)
        number(#""connections" : "#, d.activeConnections ?? 0)
        string(#""directory" : "#, d.directory)
        // A torrent's own fields, only on torrents (a listing of HTTP downloads stays as it was).
        let torrent = d.torrent
        if let torrent { number(#""fileCount" : "#, torrent.fileCount) }
        string(#""fileName" : "#, d.fileName)
        if torrent != nil {
            key(#""files" : "#)
            if let files { append(files, to: &out) } else { null() }
        }
        string(#""finalURL" : "#, d.finalURL.map(Redaction.url))
        date(#""finishedAt" : "#, d.finishedAt)
        string(#""id" : "#, d.id.rawValue)
        if let torrent { string(#""infoHash" : "#, torrent.infoHash) }
        string(#""notice" : "#, d.notice.map { ReasonText.notice($0, now: now) })
        string(#""path" : "#, d.path)
        if let torrent { number(#""peers" : "#, torrent.peers) }
        key(#""previousURLs" : "#)
        append(d.previousURLs.map(Redaction.url), to: &out)
        string(#""proxy" : "#, proxy)
        string(#""reason" : "#, d.reason)
        number(#""receivedBytes" : "#, d.receivedBytes)
        bool(#""resumable" : "#, d.resumable)
        number(#""retries" : "#, d.retries)
        if let torrent {
            bool(#""seeding" : "#, torrent.seeding)
            number(#""seeds" : "#, torrent.seeds)
        }
        key(#""segments" : "#)
        if let segments = d.segments { append(segments, to: &out) } else { null() }
        if torrent != nil { string(#""selectFile" : "#, d.request.selectedFiles?.description) }
        // What scripts of an older haul read.
        string(#""sha256" : "#, d.checksum?.algorithm == .sha256 ? d.checksum?.hex : nil)
        key(#""sources" : "#)
        append(d.listedSources, to: &out)
        number(#""speedLimit" : "#, d.speedLimit)
        string(#""state" : "#, d.state.kind.rawValue)
        number(#""totalBytes" : "#, d.totalBytes)
        if let torrent {
            number(#""uploadSpeed" : "#, torrent.uploadRate)
            number(#""uploaded" : "#, torrent.uploaded)
        }
        string(#""url" : "#, Redaction.url(d.url))
        out.append(contentsOf: "\n  }".utf8)
    }

    /// An array of strings, laid out as the rest (at the third level).
    private static func append(_ strings: [String], to out: inout [UInt8]) {
        guard !strings.isEmpty else { return out.append(contentsOf: "[\n\n    ]".utf8) }
        out.append(contentsOf: "[\n".utf8)
        for (i, string) in strings.enumerated() {
            out.append(contentsOf: "      ".utf8)
            JSONBytes.quoted(string, into: &out)
            out.append(contentsOf: (i == strings.count - 1 ? "\n    ]" : ",\n").utf8)
        }
    }

    /// The sources, laid out as the rest (an array of objects at the third level, keys sorted).
    private static func append(_ sources: [SourceListing], to out: inout [UInt8]) {
        out.append(contentsOf: "[\n".utf8)
        for (i, source) in sources.enumerated() {
            out.append(contentsOf: "      {\n        \"bytes\" : ".utf8)
            JSONBytes.appendDecimal(source.bytes, to: &out)
            out.append(contentsOf: ",\n        \"reason\" : ".utf8)
            if let reason = source.reason {
                JSONBytes.quoted(reason, into: &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: ",\n        \"state\" : ".utf8)
            JSONBytes.quoted(source.state, into: &out)
            out.append(contentsOf: ",\n        \"url\" : ".utf8)
            JSONBytes.quoted(source.url, into: &out)
            out.append(contentsOf: (i == sources.count - 1 ? "\n      }\n    ]" : "\n      },\n").utf8)
        }
    }

    /// A torrent's files, laid out as the rest (numbered from 1, as `--select-file` counts them).
    private static func append(_ files: [TorrentDetails.File], to out: inout [UInt8]) {
        guard !files.isEmpty else { return out.append(contentsOf: "[\n\n    ]".utf8) }
        out.append(contentsOf: "[\n".utf8)
        for (i, file) in files.enumerated() {
            out.append(contentsOf: "      {\n        \"done\" : ".utf8)
            JSONBytes.appendDecimal(file.done, to: &out)
            out.append(contentsOf: ",\n        \"index\" : ".utf8)
            JSONBytes.appendDecimal(i + 1, to: &out)
            out.append(contentsOf: ",\n        \"path\" : ".utf8)
            JSONBytes.quoted(file.path, into: &out)
            out.append(contentsOf: ",\n        \"selected\" : ".utf8)
            out.append(contentsOf: (file.selected ? "true" : "false").utf8)
            out.append(contentsOf: ",\n        \"size\" : ".utf8)
            JSONBytes.appendDecimal(file.size, to: &out)
            out.append(contentsOf: (i == files.count - 1 ? "\n      }\n    ]" : "\n      },\n").utf8)
        }
    }

    /// A segment map, laid out as the rest (an array of objects at the third level).
    private static func append(_ segments: [Segment], to out: inout [UInt8]) {
        guard !segments.isEmpty else { return out.append(contentsOf: "[\n\n    ]".utf8) }
        out.append(contentsOf: "[\n".utf8)
        for (i, segment) in segments.enumerated() {
            out.append(contentsOf: "      {\n        \"end\" : ".utf8)
            JSONBytes.appendDecimal(segment.end, to: &out)
            out.append(contentsOf: ",\n        \"received\" : ".utf8)
            JSONBytes.appendDecimal(segment.received, to: &out)
            out.append(contentsOf: ",\n        \"start\" : ".utf8)
            JSONBytes.appendDecimal(segment.start, to: &out)
            out.append(contentsOf: (i == segments.count - 1 ? "\n      }\n    ]" : "\n      },\n").utf8)
        }
    }
}
