import FoundationEssentials
import HaulCore

/// The lines typed on the status line (see ``Prompt``): one way of editing for every kind, and
/// what Enter does with the text of each.
extension TUIController {
    func handlePrompt(_ key: Key, _ prompt: inout Prompt) -> [Effect] {
        if prompt.kind == .command, key == .up || key == .down || key == .tab {
            return commandLineKey(key, prompt.editor)
        }
        switch key {
        case .escape:
            if prompt.kind == .filter {
                list.filterText = ""
                redraw.list = true
            }
            setMode(.list)
            return []
        case .enter:
            setMode(.list)
            return submit(prompt.kind, prompt.editor.string)
        default:
            guard prompt.editor.handle(key) else { return [] }
            mode = .prompt(prompt)
            redraw.status = true
            if prompt.kind == .filter {
                list.filterText = prompt.editor.string
                redraw.list = true
            }
            return []
        }
    }

    private func submit(_ kind: Prompt.Kind, _ text: String) -> [Effect] {
        switch kind {
        case .filter: return []
        case .meteredLimit: return submitMeteredLimit(text)
        case .speedLimit: return submitSpeedLimit(text)
        case .downloadLimit(let id): return submitDownloadLimit(text, for: id)
        case .newLink(let id): return submitNewLink(text, for: id)
        case .command: return submitCommandLine(text)
        }
    }

    /// What the status line shows before the text of `kind`.
    func label(of kind: Prompt.Kind) -> String {
        switch kind {
        case .filter: return "filter: "
        case .meteredLimit: return "metered speed cap (e.g. 500K; empty = none): "
        case .speedLimit: return "speed limit for all (e.g. 2M, 2M 08:00-23:00, 0 09:00-17:00; empty = none): "
        case .downloadLimit(let id):
            return "speed limit for \(DisplayWidth.fit(name(of: id), width: 30)) (e.g. 500K; empty = none): "
        case .newLink(let id): return "new link for \(DisplayWidth.fit(name(of: id), width: 30, pad: false)): "
        case .command: return ":"
        }
    }

    private func name(of id: DownloadID) -> String {
        model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue
    }

    private func submitMeteredLimit(_ typed: String) -> [Effect] {
        let text = typed.trimmed()
        if text.isEmpty || text == "0" || text.lowercased() == "none" {
            report("no speed cap on metered networks")
            return [.send(.setMeteredLimit(nil))]
        }
        guard let limit = Formatting.parseRate(text), limit > 0 else {
            report("'\(TerminalText.sanitize(text))' is not a speed; try 500K or 2M", isError: true)
            return []
        }
        report("metered speed cap: \(Formatting.rate(Double(limit)))")
        return [.send(.setMeteredLimit(limit))]
    }
}
