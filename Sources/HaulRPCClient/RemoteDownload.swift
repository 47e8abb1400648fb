import FoundationEssentials
import HaulAria2Wire
import HaulCore

/// One download as an aria2 engine reports it (`tellStatus` and the list calls), turned into
/// haul's values: the ``Download`` a row shows and the ``ProgressSample`` that moves it.
///
/// Whatever the engine leaves out or sends oddly gets a harmless default: a missing number is
/// unknown, an unknown status is waiting, a name or message is made terminal-safe, never used
/// as a path here.
struct RemoteDownload: Sendable, Equatable {
    let download: Download
    let sample: ProgressSample?
    /// The GID the engine knows it by.
    let gid: String

    /// The keys the list calls ask for: what a row needs.
    static let listKeys = [
        "gid", "status", "totalLength", "completedLength", "downloadSpeed", "connections", "dir", "files",
        "errorCode", "errorMessage",
    ]

    /// The download `status` describes, placed `position`-th in the list; nil without a GID.
    init?(_ status: JSONValue, position: Int) {
        guard let gid = status["gid"]?.string, !gid.isEmpty else { return nil }
        self.gid = gid
        let files = status["files"]?.array ?? []
        let first = files.first
        let uris = (first?["uris"]?.array ?? []).compactMap { $0["uri"]?.string }
        var unique: [String] = []
        for uri in uris where !unique.contains(uri) { unique.append(uri) }
        let directory = status["dir"]?.string ?? ""
        var d = Download(
            id: RemoteID.id(forGID: gid), url: unique.first ?? "", directory: directory,
            queueOrder: UInt64(position), addedAt: Self.unknownDate)
        d.request.sources = unique.dropFirst().map { DownloadSource(url: $0, origin: .user) }
        let total = Self.number(status["totalLength"])
        d.totalBytes = total.flatMap { $0 > 0 ? $0 : nil }
        let completed = Self.number(status["completedLength"]) ?? 0
        let name = first.flatMap { Self.name(path: $0["path"]?.string, directory: directory) }
        d.fileName = name
        d.receivedBytes = completed
        let speed = Double(Self.number(status["downloadSpeed"]) ?? 0)
        let connections = Self.number(status["connections"]).map { Int(clamping: $0) }
        switch status["status"]?.string {
        case "active":
            d.start()
            d.activeConnections = connections
        case "paused": d.pause(.user)
        case "complete":
            d.finish(fileName: name ?? "", size: total ?? completed, at: Self.unknownDate)
            d.fileName = name
            d.finishedAt = nil
        case "error": d.fail(.other(Self.errorText(status)))
        case "removed": d.fail(.cancelled)
        default: break // "waiting", and any status this version does not know
        }
        if let pieceLength = Self.number(status["pieceLength"]), let total = d.totalBytes,
            let hex = status["bitfield"]?.string, d.state != .finished
        {
            d.segments = Bitfield.segments(hex: hex, pieceLength: pieceLength, total: total)
        }
        download = d
        if d.state == .downloading {
            let left = d.totalBytes.map { $0 - completed }
            sample = ProgressSample(
                id: d.id, receivedBytes: completed, totalBytes: d.totalBytes, bytesPerSecond: speed,
                etaSeconds: speed > 0 ? left.map { Double($0) / speed } : nil, connections: connections)
        } else {
            sample = nil
        }
    }

    /// aria2 reports no dates: whoever keeps the list sets when it first saw a download.
    static let unknownDate = Date(timeIntervalSince1970: 0)

    /// aria2 sends numbers as decimal strings; a number is taken too.
    static func number(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let text): Int64(text)
        case .int(let n): n
        case .double(let x) where x.isFinite: Int64(exactly: x.rounded())
        default: nil
        }
    }

    /// The file's name as shown: its path below the download's folder (a torrent's subfolder
    /// kept), else the whole path; terminal-safe; nil while the engine has no path.
    static func name(path: String?, directory: String) -> String? {
        guard let path, !path.isEmpty else { return nil }
        var relative = Substring(path)
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        if !directory.isEmpty, path.hasPrefix(folder) { relative = path.dropFirst(folder.count) }
        if relative.isEmpty { relative = Substring(path.split(separator: "/").last ?? "") }
        return TerminalText.sanitize(String(relative))
    }

    /// The engine's own words for a failure, terminal-safe, or its code when it sent none.
    static func errorText(_ status: JSONValue) -> String {
        if let message = status["errorMessage"]?.string, !message.isEmpty {
            return "the engine says: " + TerminalText.sanitize(String(message.prefix(300)))
        }
        if let code = status["errorCode"]?.string { return "the engine reports error \(TerminalText.sanitize(code))" }
        return "the engine reports an error without a message"
    }
}

/// Ids for a remote engine's downloads. A haul serving RPC names its own six-digit ids as GIDs
/// after ten zeros: those are shown as the ids it shows itself. Other GIDs are shown whole.
public enum RemoteID {
    public static func id(forGID gid: String) -> DownloadID {
        let lower = gid.lowercased()
        if lower.count == 16, lower.hasPrefix("0000000000") { return DownloadID(rawValue: String(lower.dropFirst(10))) }
        return DownloadID(rawValue: lower)
    }

    public static func gid(for id: DownloadID) -> String {
        let raw = id.rawValue
        return raw.count < 16 ? String(repeating: "0", count: 16 - raw.count) + raw : raw
    }
}
