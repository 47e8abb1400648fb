import ArgumentParser
import Foundation
import HaulCore

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List downloads.",
        discussion: "With --json: an array of objects with id, url, path, state (waiting|downloading|paused|finished|failed), reason (string or null), receivedBytes and totalBytes (null when unknown), and more."
    )

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let downloads: [Download]
        if let owner = try await EngineAccess.connect(stateOptions) {
            // A haul owns the state: ask it, the file may be a moment behind. If it dies meanwhile,
            // the file is the truth again.
            if let live = try? await owner.snapshot().downloads {
                downloads = live
            } else {
                downloads = try stateOptions.readDownloads()
            }
            owner.close()
        } else {
            downloads = try stateOptions.readDownloads()
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            let data = try encoder.encode(downloads.map(ListEntry.init))
            Console.out(String(decoding: data, as: UTF8.self))
            return
        }
        guard !downloads.isEmpty else {
            Console.out("no downloads (add one with 'haul add URL')")
            return
        }
        Console.out(ListTable.render(downloads))
    }
}

/// One download as `haul ls --json` prints it: nulls are written, not left out.
struct ListEntry: Encodable {
    let download: Download

    enum Keys: String, CodingKey {
        case id, url, path, state, reason, receivedBytes, totalBytes, fileName, directory, resumable, finalURL, notice, sha256, allowMetered, addedAt, finishedAt, retries
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(download.id, forKey: .id)
        try c.encode(Redaction.url(download.url), forKey: .url)
        try c.encode(download.path, forKey: .path)
        try c.encode(download.state, forKey: .state)
        try c.encode(download.reason, forKey: .reason)
        try c.encode(download.receivedBytes, forKey: .receivedBytes)
        try c.encode(download.totalBytes, forKey: .totalBytes)
        try c.encode(download.fileName, forKey: .fileName)
        try c.encode(download.directory, forKey: .directory)
        try c.encode(download.resumable, forKey: .resumable)
        try c.encode(download.finalURL.map(Redaction.url), forKey: .finalURL)
        try c.encode(download.notice, forKey: .notice)
        try c.encode(download.sha256, forKey: .sha256)
        try c.encode(download.allowMetered, forKey: .allowMetered)
        try c.encode(download.addedAt, forKey: .addedAt)
        try c.encode(download.finishedAt, forKey: .finishedAt)
        try c.encode(download.retries, forKey: .retries)
    }
}

/// The human table of `haul ls`.
enum ListTable {
    static func render(_ downloads: [Download]) -> String {
        var lines = ["ID      STATE        DONE  SIZE         NAME"]
        for d in downloads {
            let percent = Formatting.percent(received: d.receivedBytes, total: d.totalBytes).map { "\($0)%" } ?? "--"
            let size = d.totalBytes.map { Formatting.bytes($0) } ?? Formatting.bytes(d.receivedBytes)
            var line = "\(d.id)  \(pad(d.state.rawValue, 11))  \(pad(percent, 4, left: true))  \(pad(size, 11))  \(TerminalText.sanitize(d.displayName))"
            if let reason = d.reason { line += "  (\(TerminalText.sanitize(reason)))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}
