import Foundation
import HaulCore

/// A bordered box in the middle of the screen with a title and lines.
enum BoxView {
    static func draw(title: String, lines: [(String, Style)], into grid: inout Grid, glyphs: Glyphs, maxWidth: Int = 100) {
        let width = min(grid.width - 2, maxWidth)
        let height = min(grid.height - 2, lines.count + 2)
        guard width >= 10, height >= 3 else { return }
        let left = (grid.width - width) / 2
        let top = max(1, (grid.height - height) / 2)
        let border = Style(color: .cyan)
        let inner = width - 2
        let titleText = DisplayWidth.fit(" \(title) ", width: inner, pad: false)
        grid.write(glyphs.box.tl + titleText + String(repeating: glyphs.box.h, count: max(0, inner - DisplayWidth.of(titleText))) + glyphs.box.tr, row: top, column: left, style: border)
        for i in 0..<(height - 2) {
            let row = top + 1 + i
            grid.write(glyphs.box.v, row: row, column: left, style: border)
            grid.write(String(repeating: " ", count: inner), row: row, column: left + 1, style: .plain)
            let (text, style) = lines[i]
            grid.write(DisplayWidth.fit(text, width: inner - 2, pad: false, ellipsis: glyphs.ellipsis), row: row, column: left + 2, style: style)
            grid.write(glyphs.box.v, row: row, column: left + width - 1, style: border)
        }
        grid.write(glyphs.box.bl + String(repeating: glyphs.box.h, count: inner) + glyphs.box.br, row: top + height - 1, column: left, style: border)
    }
}

/// Enter on a download: everything known about it.
enum DetailsView {
    static func lines(for d: Download, sample: ProgressSample?) -> [(String, Style)] {
        func safe(_ s: String?) -> String { s.map { TerminalText.sanitize($0) } ?? "—" }
        let size = d.totalBytes.map { "\(Formatting.bytes(d.receivedBytes)) of \(Formatting.bytes($0)) (\(d.receivedBytes) of \($0) bytes)" }
            ?? "\(Formatting.bytes(d.receivedBytes)) (total unknown)"
        let resumable = d.resumable.map { $0 ? "yes" : "no (the server ignores ranges)" } ?? "unknown yet"
        var lines: [(String, Style)] = [
            ("Name        \(safe(d.displayName))", .bold),
            ("State       \(d.state.rawValue)\(d.reason.map { " — \(TerminalText.sanitize($0))" } ?? "")", RowView.style(for: d.state)),
            ("ID          \(d.id)", .plain),
            ("URL         \(safe(Redaction.url(d.url)))", .plain),
            ("Final URL   \(safe(d.finalURL.map(Redaction.url)))", .plain),
            ("Path        \(safe(d.path ?? d.directory + "/…"))", .plain),
            ("Size        \(size)", .plain),
        ]
        if let sample, d.state == .downloading {
            lines.append(("Speed       \(Formatting.rate(sample.bytesPerSecond)), ETA \(Formatting.duration(sample.etaSeconds))", .plain))
        }
        lines += [
            ("ETag        \(safe(d.etag))", .plain),
            ("Modified    \(safe(d.lastModified))", .plain),
            ("Resumable   \(resumable)", .plain),
            ("Retries     \(d.retries)", .plain),
            ("Last error  \(safe(d.lastError))", d.lastError == nil ? .plain : Style(color: .red)),
            ("Note        \(safe(d.notice))", .plain),
            ("Checksum    \(d.sha256.map { "sha256 \($0)" } ?? "—")", .plain),
            ("Headers     \(d.headers.isEmpty ? "—" : TerminalText.sanitize(d.headers.map(Redaction.header).joined(separator: ", ")))", .plain),
            ("Metered     \(d.allowMetered ? "allowed on metered networks (M toggles)" : "waits for an unmetered network (M allows)")", .plain),
            ("", .plain),
            ("Esc or Enter closes", .dim),
        ]
        return lines
    }
}

/// The add dialog: URL, directory and name fields.
public struct AddForm: Equatable, Sendable {
    public var fields: [LineEditor]
    public var focus = 0
    public static let labels = ["URL", "Directory", "Name"]

    public init(directory: String) {
        fields = [LineEditor(), LineEditor(directory), LineEditor()]
    }

    func lines(width: Int, glyphs: Glyphs) -> [(String, Style)] {
        var result: [(String, Style)] = [("", .plain)]
        for (i, field) in fields.enumerated() {
            let label = DisplayWidth.fit(Self.labels[i] + ":", width: 11)
            let room = max(4, width - 18)
            let text = TerminalText.sanitize(field.string)
            let shown = DisplayWidth.of(text) > room ? glyphs.ellipsis + String(text.suffix(room - 1)) : text
            let cursor = i == focus ? (glyphs == .unicode ? "▏" : "_") : ""
            result.append((label + shown + cursor, i == focus ? .bold : .plain))
        }
        result.append(("", .plain))
        result.append(("Paste or type the URL. Name is optional.", .dim))
        result.append(("Tab next field · Enter add · Esc cancel", .dim))
        return result
    }
}

/// The summary a UI shows on attaching: what finished, failed or waits for an unmetered
/// network while no UI was there.
enum AwayView {
    static func lines(_ report: AwayReport, glyphs: Glyphs, height: Int) -> [(String, Style)] {
        let finished = report.count(.finished), failed = report.count(.failed), metered = report.count(.metered)
        var parts: [String] = []
        if finished > 0 { parts.append("\(finished) finished") }
        if failed > 0 { parts.append("\(failed) failed") }
        if metered > 0 { parts.append("\(metered) waiting for an unmetered network") }
        var lines: [(String, Style)] = [(parts.joined(separator: " · "), .bold), ("", .plain)]
        let room = max(1, height - 5)
        let entries = report.entries.reversed()  // newest first
        for entry in entries.prefix(room) {
            let name = TerminalText.sanitize(entry.name)
            switch entry.outcome {
            case .finished: lines.append(("finished  \(name)", RowView.style(for: .finished)))
            case .failed: lines.append(("failed    \(name) — \(TerminalText.sanitize(entry.reason ?? "failed"))", RowView.style(for: .failed)))
            case .metered: lines.append(("metered   \(name) (resumes on an unmetered network)", RowView.style(for: .paused)))
            }
        }
        if entries.count > room { lines.append(("\(glyphs.ellipsis) and \(entries.count - room) more", .dim)) }
        lines.append(("", .plain))
        lines.append(("any key closes", .dim))
        return lines
    }
}
