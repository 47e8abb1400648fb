import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Facts that must survive a `kill -9` that comes before the next (coalesced) state save:
/// which name a download claimed, and that it finished. One JSON line each, appended with a
/// single `write` (the page cache outlives the process), folded into the state file at the
/// next load and emptied by every save.
///
/// Appended to from any thread (a transfer journals its own claim and finish, so the engine
/// actor does not wait on the file system); an entry replayed twice changes nothing.
///
/// What a command changed is journaled too, so that what haul answered is on disk before the
/// answer: ``appendRecords(_:removed:settings:)`` writes the changed downloads whole, the ids
/// taken off the list and the settings, numbered by the journal's count, and waits for the disk.
/// A save notes the count it covers (``StateDocument/journalMark``), so a load applies only the
/// records written after it, never an older record over a newer save.
///
/// A claim must be in the file before its `.part` exists, so ``append(_:)`` writes at once. A
/// finish need not: the load finds a finished file at its claimed name without it (see
/// `Engine.reconcileWithDisk`), so ``appendSoon(_:)`` keeps it until the next write or save. With
/// 1,000 small files that is one `write` per file instead of two.
public final class StateJournal: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var id: DownloadID
        public var fileName: String
        public var totalBytes: Int64?
        /// Set when the file was placed at its final name.
        public var finished: Bool
        /// A segmented download's map, as synced to disk.
        public var segments: [Segment]?
        /// When it was placed, by the engine's clock (older journals leave it out).
        public var finishedAt: Date?
        /// A new name's claim carries the validators of the response its bytes come from: a
        /// resume after a kill before the next save must ask with them (`If-Range`), or a file
        /// changed on the server since would be spliced onto the bytes on disk.
        public var etag: String?
        public var lastModified: String?

        public init(
            id: DownloadID, fileName: String, totalBytes: Int64?, finished: Bool, segments: [Segment]? = nil,
            finishedAt: Date? = nil, etag: String? = nil, lastModified: String? = nil
        ) {
            self.etag = etag
            self.lastModified = lastModified
            self.finishedAt = finishedAt
            self.segments = segments
            self.id = id
            self.fileName = fileName
            self.totalBytes = totalBytes
            self.finished = finished
        }
    }

    public let path: String
    private struct File {
        var fd: Int32 = -1
        var appendCount = 0
        /// Lines from `appendSoon` not written yet.
        var pending: [UInt8] = []
    }
    private let file = Mutex(File())

    /// `count`: the count the state file notes (``StateDocument/journalMark``), so records
    /// written from here on are numbered after everything already journaled.
    public init(statePath: String, count: Int = 0) {
        path = statePath + ".journal"
        file.withLock { $0.appendCount = count }
    }

    deinit {
        file.withLock { f in
            Self.write(&f, path, [])
            if f.fd >= 0 { close(f.fd) }
        }
    }

    /// Entries appended so far (a save notes it before and clears only if it has not moved).
    public var appendCount: Int { file.withLock { $0.appendCount } }

    /// Writes `entry` (after any entries kept by ``appendSoon(_:)``) before returning.
    public func append(_ entry: Entry) {
        let line = entry.jsonLine()
        file.withLock { f in
            f.appendCount += 1
            Self.write(&f, path, line)
        }
    }

    /// Writes `entry` and waits until it is on disk (`fdatasync`): a segment map, which must
    /// survive a power loss as the data it claims does.
    public func appendDurably(_ entry: Entry) {
        let line = entry.jsonLine()
        file.withLock { f in
            f.appendCount += 1
            Self.write(&f, path, line)
            if f.fd >= 0 { fdatasync(f.fd) }
        }
    }

    /// Writes what a command changed, numbered, in one `write`, and waits until it is on disk
    /// (`fdatasync`): the command's answer follows. Nothing to write returns at once.
    public func appendRecords(
        _ downloads: [Download], removed: [DownloadID] = [], settings: StateDocument.Settings? = nil
    ) {
        guard !downloads.isEmpty || !removed.isEmpty || settings != nil else { return }
        file.withLock { f in
            f.appendCount += 1
            let line = Record.line(
                sequence: f.appendCount, downloads: downloads, removed: removed, settings: settings)
            Self.write(&f, path, line)
            if f.fd >= 0 { fdatasync(f.fd) }
        }
    }

    /// Keeps `entry` to be written with the next ``append(_:)`` or ``flush()``; a save that
    /// covers it drops it. For facts the load can also tell from the disk.
    public func appendSoon(_ entry: Entry) {
        let line = entry.jsonLine()
        file.withLock { f in
            f.appendCount += 1
            f.pending.append(contentsOf: line)
        }
    }

    /// Writes what ``appendSoon(_:)`` kept.
    public func flush() {
        file.withLock { Self.write(&$0, path, []) }
    }

    /// The kept lines, then `line`, in one `write`.
    private static func write(_ f: inout File, _ path: String, _ line: [UInt8]) {
        guard !f.pending.isEmpty || !line.isEmpty else { return }
        if f.fd < 0 { f.fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        guard f.fd >= 0 else { return }
        if f.pending.isEmpty {
            _ = line.withUnsafeBytes { Glibc.write(f.fd, $0.baseAddress, $0.count) }
        } else {
            f.pending.append(contentsOf: line)
            _ = f.pending.withUnsafeBytes { Glibc.write(f.fd, $0.baseAddress, $0.count) }
            f.pending.removeAll(keepingCapacity: true)
        }
    }

    /// Empties the journal: everything in it is now in the state file.
    public func clear() {
        file.withLock { f in
            f.pending.removeAll()
            Self.truncate(f, path)
        }
    }

    /// Empties the journal unless something was appended after `mark` (an ``appendCount``): a
    /// save covers what was decided before it, and an entry appended since may not be in it.
    /// One step under the lock, so an append lands either before (and nothing is cleared) or
    /// after (and stays).
    @discardableResult
    public func clear(ifNothingAppendedSince mark: Int) -> Bool {
        file.withLock { f in
            guard f.appendCount == mark else { return false }
            f.pending.removeAll(keepingCapacity: true)
            Self.truncate(f, path)
            return true
        }
    }

    private static func truncate(_ f: File, _ path: String) {
        if f.fd >= 0 {
            ftruncate(f.fd, 0)
        } else {
            Glibc.truncate(path, 0)
        }
    }

    /// One line of the journal: a transfer's claim or finish, or what a command changed.
    public enum Line: Sendable, Equatable {
        case claim(Entry)
        case record(Record)
    }

    /// What one command changed: downloads whole (new ones and changed ones), ids taken off the
    /// list, the settings; numbered by the journal's count.
    public struct Record: Codable, Sendable, Equatable {
        public var sequence: Int
        public var downloads: [Download]?
        public var removed: [DownloadID]?
        public var settings: StateDocument.Settings?

        public init(
            sequence: Int, downloads: [Download]? = nil, removed: [DownloadID]? = nil,
            settings: StateDocument.Settings? = nil
        ) {
            self.sequence = sequence
            self.downloads = downloads
            self.removed = removed
            self.settings = settings
        }

        /// The record as one JSON line: downloads as the state file writes them.
        static func line(
            sequence: Int, downloads: [Download], removed: [DownloadID], settings: StateDocument.Settings?
        ) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(64 + downloads.count * 320)
            out.append(contentsOf: #"{"sequence":"#.utf8)
            out.append(contentsOf: String(sequence).utf8)
            if !downloads.isEmpty {
                out.append(contentsOf: #","downloads":["#.utf8)
                for (i, d) in downloads.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    DownloadRecord.write(d, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
            if !removed.isEmpty {
                out.append(contentsOf: #","removed":["#.utf8)
                for (i, id) in removed.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONBytes.quoted(id.rawValue, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
            if let settings {
                out.append(contentsOf: #","settings":"#.utf8)
                SettingsJSON.write(settings, into: &out)
            }
            out.append(contentsOf: "}\n".utf8)
            return out
        }
    }

    /// The lines on disk, skipping a line cut short by a crash.
    public static func read(statePath: String) -> [Line] {
        guard let data = try? FileContents.read(statePath + ".journal") else { return [] }
        let decoder = StateCoding.decoder()
        return data.withUnsafeBytes { (file: UnsafeRawBufferPointer) -> [Line] in
            var lines: [Line] = []
            // Lines are found with `memchr`: one record can be many megabytes (an add of 100,000
            // URLs), and a byte-by-byte split of it cost more than reading it.
            guard let base = file.baseAddress else { return lines }
            var offset = 0
            while offset < file.count {
                let start = base + offset
                let remaining = file.count - offset
                var length = remaining
                if let newline = memchr(start, 0x0A, remaining) {
                    length = start.distance(to: UnsafeRawPointer(newline))
                }
                offset += length + 1
                guard length > 0 else { continue }
                if let line = Self.line(UnsafeRawBufferPointer(start: start, count: length), decoder: decoder) {
                    lines.append(line)
                }
            }
            return lines
        }
    }

    /// One line of the journal; nil when it cannot be read (a line cut short by a crash).
    private static func line(_ bytes: UnsafeRawBufferPointer, decoder: JSONDecoder) -> Line? {
        // A record starts with its number; a claim with its id.
        if bytes.starts(with: #"{"sequence""#.utf8) {
            let fast = try? StateJSONReader.record(bytes.bindMemory(to: UInt8.self))
            return (fast ?? (try? decoder.decode(Record.self, from: Data(bytes)))).map(Line.record)
        }
        return (try? decoder.decode(Entry.self, from: Data(bytes))).map(Line.claim)
    }

    /// The highest record number in `lines` (0 for none).
    public static func lastSequence(_ lines: [Line]) -> Int {
        lines.reduce(0) { last, line in
            guard case .record(let record) = line else { return last }
            return max(last, record.sequence)
        }
    }

    /// Applies `lines` to `document` in order (later lines win): records numbered after its
    /// ``StateDocument/journalMark`` only, claims always (a claim's download may not have been in
    /// the save taken just after it).
    public static func apply(_ lines: [Line], to document: inout StateDocument) {
        guard !lines.isEmpty else { return }
        let mark = document.journalMark ?? 0
        var entries: [Entry] = []
        var records = false
        for line in lines {
            switch line {
            case .claim(let entry): entries.append(entry)
            case .record(let record) where record.sequence > mark:
                // Claims before a record go first, in order.
                apply(entries, to: &document.downloads)
                entries.removeAll()
                apply(record, to: &document)
                records = true
            case .record: continue
            }
        }
        apply(entries, to: &document.downloads)
        if records {
            // The list is in order-key order: a moved download's record moves it.
            var sorted = Array(document.downloads)
            if !zip(sorted, sorted.dropFirst()).allSatisfy({ $0.queueOrder <= $1.queueOrder }) {
                sorted = sorted.enumerated().sorted {
                    ($0.element.queueOrder, $0.offset) < ($1.element.queueOrder, $1.offset)
                }
                .map(\.element)
                document.downloads = ChunkedArray(sorted)
            }
        }
    }

    private static func apply(_ record: Record, to document: inout StateDocument) {
        if let settings = record.settings { document.settings = settings }
        if let removed = record.removed, !removed.isEmpty {
            let gone = Set(removed)
            var kept: ChunkedArray<Download> = []
            for d in document.downloads where !gone.contains(d.id) { kept.append(d) }
            document.downloads = kept
        }
        guard let changed = record.downloads, !changed.isEmpty else { return }
        var index: [DownloadID: Int] = [:]
        for (i, d) in document.downloads.enumerated() { index[d.id] = i }
        for d in changed {
            if let i = index[d.id] {
                document.downloads[i] = d
            } else {
                index[d.id] = document.downloads.count
                document.downloads.append(d)
            }
        }
    }

    /// Applies claims and finishes to `downloads` (later entries win).
    static func apply(_ entries: [Entry], to downloads: inout ChunkedArray<Download>) {
        guard !entries.isEmpty else { return }
        var index: [DownloadID: Int] = [:]
        for (i, d) in downloads.enumerated() { index[d.id] = i }
        for entry in entries {
            guard let i = index[entry.id], downloads[i].state != .finished else { continue }
            downloads[i].fileName = entry.fileName
            if let total = entry.totalBytes { downloads[i].totalBytes = total }
            if entry.etag != nil || entry.lastModified != nil {
                downloads[i].etag = entry.etag
                downloads[i].lastModified = entry.lastModified
            }
            if let segments = entry.segments {
                downloads[i].segments = segments
                downloads[i].receivedBytes = segments.received
            }
            if entry.finished {
                // A journal from before finish times were journaled: the time it was added is
                // the closest time known.
                downloads[i].finish(
                    fileName: entry.fileName, size: entry.totalBytes ?? downloads[i].receivedBytes,
                    at: entry.finishedAt ?? downloads[i].addedAt)
            }
        }
    }
}

extension StateJournal.Entry {
    /// The entry as one JSON line, written by hand: the journal is appended to twice per
    /// download, and JSONEncoder was a visible share of a run of many small files.
    /// `read` decodes it with Foundation (tests check the two agree).
    func jsonLine() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + fileName.utf8.count)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONBytes.quoted(id.rawValue, into: &out)
        out.append(contentsOf: #","fileName":"#.utf8)
        JSONBytes.quoted(fileName, into: &out)
        if let totalBytes {
            out.append(contentsOf: #","totalBytes":"#.utf8)
            JSONBytes.appendDecimal(totalBytes, to: &out)
        }
        if let segments {
            out.append(contentsOf: #","segments":["#.utf8)
            for (i, segment) in segments.enumerated() {
                out.append(contentsOf: (i == 0 ? #"{"end":"# : #",{"end":"#).utf8)
                JSONBytes.appendDecimal(segment.end, to: &out)
                out.append(contentsOf: #","received":"#.utf8)
                JSONBytes.appendDecimal(segment.received, to: &out)
                out.append(contentsOf: #","start":"#.utf8)
                JSONBytes.appendDecimal(segment.start, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let etag {
            out.append(contentsOf: #","etag":"#.utf8)
            JSONBytes.quoted(etag, into: &out)
        }
        if let lastModified {
            out.append(contentsOf: #","lastModified":"#.utf8)
            JSONBytes.quoted(lastModified, into: &out)
        }
        if let finishedAt,
            case let seconds = finishedAt.timeIntervalSince1970,
            JSONBytes.timestampParts(seconds) != nil
        {
            out.append(contentsOf: #","finishedAt":"#.utf8)
            _ = JSONBytes.appendTimestamp(seconds, to: &out)
        }
        out.append(contentsOf: (finished ? #","finished":true}"# : #","finished":false}"#).utf8)
        out.append(UInt8(ascii: "\n"))
        return out
    }
}
