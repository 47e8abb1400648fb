import FoundationEssentials
import HaulCore

/// `:` opens a command line on the status line that takes the command-line interface's own
/// commands (`limit 2M`, `move top`, `refresh URL`); the backend parses and runs them with the same
/// parser `haul` uses. ↑/↓ walk the history, Tab completes a command's name.
extension TUIController {
    /// The most command lines kept in the history.
    static let historyLimit = 100

    /// Opens the command line, with `text` typed already (`files ` from a torrent's details).
    func beginCommandLine(_ text: String = "") {
        commands.position = commands.history.count
        setMode(.prompt(Prompt(.command, LineEditor(text))))
    }

    func submitCommandLine(_ text: String) -> [Effect] {
        let line = text.trimmed()
        guard !line.isEmpty else { return [] }
        if commands.history.last != line { commands.history.append(line) }
        if commands.history.count > Self.historyLimit { commands.history.removeFirst() }
        return [.runCommand(line, selected: selectedDownload?.id)]
    }

    /// ↑/↓ walk the history; Tab completes a command's name.
    func commandLineKey(_ key: Key, _ editor: LineEditor) -> [Effect] {
        switch key {
        case .up, .down:
            guard !commands.history.isEmpty else { return [] }
            commands.position = max(0, min(commands.history.count, commands.position + (key == .up ? -1 : 1)))
            let recalled = commands.position < commands.history.count ? commands.history[commands.position] : ""
            mode = .prompt(Prompt(.command, LineEditor(recalled)))
            redraw.status = true
        default:
            let text = editor.string
            guard !text.contains(" ") else { return [] }
            let matches = commands.names.filter { $0.hasPrefix(text) }
            if matches.count == 1 {
                mode = .prompt(Prompt(.command, LineEditor(matches[0] + " ")))
                redraw.status = true
            } else if matches.count > 1 {
                let common = matches.dropFirst().reduce(matches[0]) { String(zip($0, $1).prefix { $0 == $1 }.map(\.0)) }
                mode = .prompt(Prompt(.command, LineEditor(common)))
                redraw.status = true
            }
        }
        return []
    }
}
