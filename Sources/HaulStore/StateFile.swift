import FoundationEssentials
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// The JSON state file on disk: reading with recovery, atomic saving.
public struct StateFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// What loading found.
    public struct Loaded: Sendable {
        public var document: StateDocument
        /// Set when something was wrong and had to be recovered: tell the user.
        public var recoveryMessage: String?
    }

    public enum LoadError: Error, CustomStringConvertible {
        case newerVersion(path: String, version: Int)
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .newerVersion(let path, let version):
                return
                    "the state file \(path) was written by a newer haul (format \(version); this haul reads up to "
                    + "\(StateDocument.currentVersion)); it was left untouched"
            case .unreadable(let path, let reason):
                return "cannot read the state file \(path): \(reason)"
            }
        }
    }

    /// Creates the directory (mode 0700) if needed, with any missing parents (default mode).
    ///
    /// With mkdir(2), so the last directory gets its mode as it is made, never wider for a moment.
    public func prepareDirectory() throws {
        let directory = PathText.directory(of: path)
        guard !directory.isEmpty, !Self.isDirectory(directory) else { return }
        let parts = directory.split(separator: "/", omittingEmptySubsequences: true)
        var prefix = ""
        for (i, part) in parts.enumerated() {
            prefix += "/"
            prefix += String(part)
            guard !Self.isDirectory(prefix) else { continue }
            let last = i == parts.count - 1
            guard mkdir(prefix, last ? 0o700 : 0o777) == 0 || (errno == EEXIST && Self.isDirectory(prefix)) else {
                throw AtomicFile.WriteError(
                    description: "cannot create the state directory \(directory): \(AtomicFile.errnoText())")
            }
            if last { chmod(prefix, 0o700) }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads the file. A missing file is an empty state; a broken one is moved aside
    /// (never overwritten) and whatever could be read is kept.
    public func load(now: Date) throws -> Loaded {
        let data: Data
        do {
            data = try FileContents.read(path)
        } catch {
            if error.isMissing { return Loaded(document: StateDocument(), recoveryMessage: nil) }
            throw LoadError.unreadable(path: path, reason: error.reason)
        }
        return try decode(data, repairingAt: now)
    }

    /// Reads the file without taking the lock and without repairing anything (for `haul ls`).
    public func loadReadOnly() throws -> StateDocument {
        var document: StateDocument
        do {
            document = try decode(try FileContents.read(path), repairingAt: nil).document
        } catch let error as FileContents.Failure {
            guard error.isMissing else { throw LoadError.unreadable(path: path, reason: error.reason) }
            document = StateDocument()
        }
        StateJournal.apply(StateJournal.read(statePath: path), to: &document)
        return document
    }

    /// The document in `data`. With a time, what cannot be kept is saved aside under a name of
    /// that time; without one (a reader), nothing on disk changes.
    func decode(_ data: Data, repairingAt now: Date?) throws -> Loaded {
        let repair = now != nil
        // A sound file is read in one pass over its bytes, unknown fields noted on the way.
        if let fast = try? StateJSONReader.decode(data) {
            return try accept(fast.document, unknownFields: repair ? fast.unknownFields : [], now: now)
        }
        let decoder = StateCoding.decoder()
        // A reader repairs nothing, so it needs no survey of unknown fields.
        if !repair, let document = try? decoder.decode(StateDocument.self, from: data) {
            return try accept(document, unknownFields: [], now: now)
        }
        // Foundation's path (older files with ISO 8601 dates); the key survey finds fields this build would drop.
        if let survey = try? decoder.decode(KeySurvey.self, from: data) {
            if survey.version > StateDocument.currentVersion {
                throw LoadError.newerVersion(path: path, version: survey.version)
            }
            if let document = try? decoder.decode(StateDocument.self, from: data) {
                return try accept(document, unknownFields: repair ? survey.unknownFields : [], now: now)
            }
        }
        return try salvage(data, now: now)
    }

    /// A document read whole: refused when newer, and with unknown fields the original is kept aside.
    private func accept(_ document: StateDocument, unknownFields unknown: [String], now: Date?) throws -> Loaded {
        if document.version > StateDocument.currentVersion {
            throw LoadError.newerVersion(path: path, version: document.version)
        }
        var document = document
        document.version = StateDocument.currentVersion
        guard !unknown.isEmpty, let now else { return Loaded(document: document, recoveryMessage: nil) }
        let aside = try copyAside(now: now)
        let listed = unknown.prefix(5).joined(separator: ", ") + (unknown.count > 5 ? ", …" : "")
        return Loaded(
            document: document,
            recoveryMessage:
                "the state file \(path) has fields this haul does not know (\(listed)); they will not be kept, so "
                + "the original is saved at \(aside)"
        )
    }

    /// The slow path for a damaged file: keep every download that can still be read.
    private func salvage(_ data: Data, now: Date?) throws -> Loaded {
        guard let root = try? StateCoding.decoder().decode(SalvagedDocument.self, from: data) else {
            guard let now else {
                throw LoadError.unreadable(
                    path: path,
                    reason: "it is damaged; the next haul command that changes it will move it aside and start afresh")
            }
            let aside = try moveAside(now: now)
            return Loaded(
                document: StateDocument(),
                recoveryMessage:
                    "the state file \(path) was unreadable (not a haul state document); it was moved to \(aside) "
                    + "and haul starts with an empty list"
            )
        }
        let version = root.version ?? 1
        if version > StateDocument.currentVersion { throw LoadError.newerVersion(path: path, version: version) }
        let settings = root.settings ?? StateDocument.Settings()
        var downloads: [Download] = []
        var unreadable = 0
        let entries = root.downloads ?? []
        for entry in entries {
            if let download = entry.download, !downloads.contains(where: { $0.id == download.id }) {
                downloads.append(download)
            } else {
                unreadable += 1
            }
        }
        var message: String?
        if let now, unreadable > 0 || root.downloadsUnreadable {
            let aside = try copyAside(now: now)
            message =
                "\(unreadable) of \(entries.count) downloads in \(path) could not be read and were left out; the "
                + "original file is kept at \(aside)"
        }
        var document = StateDocument(settings: settings, downloads: downloads)
        document.version = StateDocument.currentVersion
        return Loaded(document: document, recoveryMessage: message)
    }

    /// Saves atomically with mode 0600. `progress` holds newer `receivedBytes` for some
    /// downloads (the engine keeps running downloads' counts apart from its rows).
    public func save(_ document: StateDocument, progress: [DownloadID: Int64] = [:]) throws {
        try AtomicFile.write(to: path, mode: 0o600) { sink in
            try StateJSONWriter.encode(document, progress: progress, to: sink)
        }
    }

    private func asidePath(now: Date) -> String {
        // "2026-11-28T21:22:33Z" as 20261128-212233.
        let digits = now.formatted(.iso8601).filter(\.isNumber)
        let stamp = "\(digits.prefix(8))-\(digits.dropFirst(8).prefix(6))"
        var candidate = "\(path).corrupt-\(stamp)"
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(path).corrupt-\(stamp)-\(n)"
            n += 1
        }
        return candidate
    }

    private func moveAside(now: Date) throws -> String {
        let target = asidePath(now: now)
        guard rename(path, target) == 0 else {
            throw LoadError.unreadable(
                path: path, reason: "it is corrupt and could not be moved aside: \(AtomicFile.errnoText())")
        }
        return target
    }

    private func copyAside(now: Date) throws -> String {
        let target = asidePath(now: now)
        do {
            try FileManager.default.copyItem(atPath: path, toPath: target)
        } catch {
            throw LoadError.unreadable(
                path: path, reason: "it is damaged and could not be copied aside: \(error)")
        }
        return target
    }
}

/// A damaged state document read field by field: what can be read of it, each download alone.
private struct SalvagedDocument: Decodable {
    var version: Int?
    var settings: StateDocument.Settings?
    var downloads: [Entry]?
    /// There is a `downloads` field, but not a list.
    var downloadsUnreadable = false

    /// One download, or nil when it cannot be read.
    struct Entry: Decodable {
        var download: Download?

        init(from decoder: any Decoder) throws {
            download = try? Download(from: decoder)
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, settings, downloads
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try? container.decode(Int.self, forKey: .version)
        settings = try? container.decode(StateDocument.Settings.self, forKey: .settings)
        downloads = try? container.decode([Entry].self, forKey: .downloads)
        downloadsUnreadable = downloads == nil && container.contains(.downloads)
    }
}
