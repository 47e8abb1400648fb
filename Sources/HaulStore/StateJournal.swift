#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HaulCore

/// Facts that must survive a `kill -9` that comes before the next (coalesced) state save:
/// which name a download claimed, and that it finished. One JSON line each, appended with a
/// single `write` (the page cache outlives the process), folded into the state file at the
/// next load and emptied by every save.
public final class StateJournal {
    public struct Entry: Codable, Sendable, Equatable {
        public var id: DownloadID
        public var fileName: String
        public var totalBytes: Int64?
        /// Set when the file was placed at its final name.
        public var finished: Bool

        public init(id: DownloadID, fileName: String, totalBytes: Int64?, finished: Bool) {
            self.id = id
            self.fileName = fileName
            self.totalBytes = totalBytes
            self.finished = finished
        }
    }

    public let path: String
    private var fd: Int32 = -1
    /// Entries appended so far (a save compares it before and after to know what it covered).
    public private(set) var appendCount = 0

    public init(statePath: String) {
        path = statePath + ".journal"
    }

    deinit { if fd >= 0 { close(fd) } }

    public func append(_ entry: Entry) {
        if fd < 0 { fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return }
        let line = entry.jsonLine()
        appendCount += 1
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Empties the journal: everything in it is now in the state file.
    public func clear() {
        if fd >= 0 {
            ftruncate(fd, 0)
        } else {
            truncate(path, 0)
        }
    }

    /// The entries on disk, skipping a line cut short by a crash.
    public static func read(statePath: String) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: statePath + ".journal") else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Entry.self, from: Data($0)) }
    }

    /// Applies `entries` to `downloads` (later entries win).
    public static func apply(_ entries: [Entry], to downloads: inout [Download]) {
        guard !entries.isEmpty else { return }
        var index: [DownloadID: Int] = [:]
        for (i, d) in downloads.enumerated() { index[d.id] = i }
        for entry in entries {
            guard let i = index[entry.id], downloads[i].state != .finished else { continue }
            downloads[i].fileName = entry.fileName
            if let total = entry.totalBytes { downloads[i].totalBytes = total }
            if entry.finished {
                downloads[i].state = .finished
                downloads[i].pauseCause = nil
                downloads[i].failureReason = nil
                downloads[i].receivedBytes = entry.totalBytes ?? downloads[i].receivedBytes
                downloads[i].finishedAt = downloads[i].finishedAt ?? Date()
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
        out.append(contentsOf: (finished ? #","finished":true}"# : #","finished":false}"#).utf8)
        out.append(UInt8(ascii: "\n"))
        return out
    }
}
