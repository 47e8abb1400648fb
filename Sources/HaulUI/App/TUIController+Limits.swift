import FoundationEssentials
import HaulCore

/// The speed-limit and new-link prompts, and the keys that move a download in the queue.
extension TUIController {
    /// `b`: the global limit, with its window if it has one, ready to edit.
    func beginSpeedLimit() {
        let current = network.speedLimit.map { limit in
            let rate = limit.rate == 0 ? "0" : Self.editable(limit.rate)
            return limit.window.map { "\(rate) \($0)" } ?? rate
        }
        setMode(.prompt(Prompt(.speedLimit, LineEditor(current ?? ""))))
    }

    /// `l`: the selected download's own limit.
    func beginDownloadLimit(_ d: ListRow) {
        setMode(.prompt(Prompt(.downloadLimit(d.id), LineEditor(d.speedLimit.map(Self.editable) ?? ""))))
    }

    /// 2097152 → "2M": what the prompts show of a rate, as it would be typed.
    static func editable(_ rate: Int64) -> String {
        Formatting.bytes(rate).replacing(" ", with: "").replacing("iB", with: "")
            .replacing("B", with: "")
    }

    func submitSpeedLimit(_ text: String) -> [Effect] {
        let words = text.split(separator: " ").map(String.init)
        if words.isEmpty || words[0].lowercased() == "none" {
            report("no speed limit")
            return [.send(.setSpeedLimit(nil))]
        }
        guard words.count <= 2, let rate = Formatting.parseRate(words[0]) else {
            report("'\(TerminalText.sanitize(text))' is not a speed; try 2M or 2M 08:00-23:00", isError: true)
            return []
        }
        var window: DailyWindow?
        if words.count == 2 {
            guard let parsed = DailyWindow(words[1]) else {
                report("'\(TerminalText.sanitize(words[1]))' is not a daily window such as 08:00-23:00", isError: true)
                return []
            }
            window = parsed
        }
        if let problem = SpeedLimit.problem(with: rate) {
            report(problem, isError: true)
            return []
        }
        let limit = SpeedLimit(rate: rate, window: window)
        report("speed limit: \(limit.label)")
        return [.send(.setSpeedLimit(limit))]
    }

    /// `u`: Enter gives the download the typed link (the engine checks it and says why not).
    func submitNewLink(_ text: String, for id: DownloadID) -> [Effect] {
        let url = text.trimmed()
        guard !url.isEmpty else { return [] }
        let name = model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue
        report("\(name): new link; it goes on from there if it is the same file")
        return [.send(.refresh(id, url: url))]
    }

    func submitDownloadLimit(_ typed: String, for id: DownloadID) -> [Effect] {
        let name = model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue
        let text = typed.trimmed()
        if text.isEmpty || text.lowercased() == "none" {
            report("\(name): no limit of its own")
            return [.send(.setDownloadSpeedLimit(.ids([id]), nil))]
        }
        guard let rate = Formatting.parseRate(text), rate >= SpeedLimit.minimumRate else {
            report(
                "'\(TerminalText.sanitize(text))' is not a speed of at least "
                    + "\(Formatting.rate(Double(SpeedLimit.minimumRate))); try 500K or 2M", isError: true)
            return []
        }
        report("\(name): at most \(Formatting.rate(Double(rate)))")
        return [.send(.setDownloadSpeedLimit(.ids([id]), rate))]
    }

    /// `K`, `J`, `T`, `B`: moves the selected download in the list's own order, which is the
    /// order waiting downloads start in; the selection follows it.
    func moveInQueue(_ d: ListRow, _ place: QueueMove) -> [Effect] {
        guard list.sort == .queue else {
            report("the list is sorted by \(list.sort.rawValue); press s until it shows the queue to move downloads")
            return []
        }
        let position = model.positions[d.id] ?? 0
        let atTop = position == 0
        let atBottom = position == model.order.count - 1
        if (atTop && (place == .top || place == .up)) || (atBottom && (place == .bottom || place == .down)) {
            report("\(TerminalText.sanitize(d.displayName)) is already at the \(atTop ? "top" : "bottom") of the queue")
            return []
        }
        let whereTo = place == .top || place == .bottom ? "to the \(place.rawValue)" : place.rawValue
        report("\(TerminalText.sanitize(d.displayName)): moved \(whereTo)")
        return [.send(.move(.ids([d.id]), place))]
    }
}
