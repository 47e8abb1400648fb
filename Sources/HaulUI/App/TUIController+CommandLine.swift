import Foundation
import HaulCore

/// `:` opens a command line on the status line that takes the command-line interface's own
/// commands (`limit 2M`, `move top`, `refresh URL`); the backend parses and runs them with the same
/// parser `haul` uses. ↑/↓ walk the history, Tab completes a command's name.
extension TUIController {
    /// The most command lines kept in the history.
    static let historyLimit = 100

    func beginCommandLine() {
        historyPosition = commandHistory.count
        setMode(.command(LineEditor("")))
    }

    func handleCommandLine(_ key: Key, _ editor: inout LineEditor) -> [Effect] {
        switch key {
        case .escape:
            setMode(.list)
        case .enter:
            setMode(.list)
            let line = editor.string.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { return [] }
            if commandHistory.last != line { commandHistory.append(line) }
            if commandHistory.count > Self.historyLimit { commandHistory.removeFirst() }
            return [.runCommand(line, selected: selectedDownload?.id)]
        case .up, .down:
            guard !commandHistory.isEmpty else { return [] }
            historyPosition = max(0, min(commandHistory.count, historyPosition + (key == .up ? -1 : 1)))
            let recalled = historyPosition < commandHistory.count ? commandHistory[historyPosition] : ""
            mode = .command(LineEditor(recalled))
            statusDirty = true
        case .tab:
            let text = editor.string
            guard !text.contains(" ") else { return [] }
            let matches = commandNames.filter { $0.hasPrefix(text) }
            if matches.count == 1 {
                mode = .command(LineEditor(matches[0] + " "))
                statusDirty = true
            } else if matches.count > 1 {
                let common = matches.dropFirst().reduce(matches[0]) { $0.commonPrefix(with: $1) }
                mode = .command(LineEditor(common))
                statusDirty = true
            }
        default:
            guard editor.handle(key) else { return [] }
            mode = .command(editor)
            statusDirty = true
        }
        return []
    }
}
