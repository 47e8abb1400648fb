import ArgumentParser
import HaulCore

struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move downloads in the list: top, bottom, up or down.",
        discussion:
            "The list's order is the order waiting downloads start in ('haul run -j N' runs N at once). A moved "
            + "download keeps its state; several keep their order among themselves."
    )

    @Argument(
        help: ArgumentHelp(
            "Download ids (or unique prefixes), then where: top, bottom, up or down.", valueName: "id… where"))
    var words: [String] = []

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func validate() throws {
        guard words.count >= 2 else { throw ValidationError("give one or more ids, then top, bottom, up or down") }
        guard QueueMove(rawValue: words.last!.lowercased()) != nil else {
            throw ValidationError("'\(TerminalText.sanitize(words.last!))' is not a place; use top, bottom, up or down")
        }
    }

    func run() async throws {
        let place = QueueMove(rawValue: words.last!.lowercased())!
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        var lines: [String] = []
        do {
            let known = try await engine.snapshot().downloads.all.map(\.id)
            let ids = try DownloadSelector.resolve(Array(words.dropLast()), among: known)
            try await engine.perform(.move(.ids(ids), place))
            try await engine.save()
            let list = try await engine.snapshot().downloads.all
            let moved = Set(ids)
            for (position, d) in list.enumerated() where moved.contains(d.id) {
                lines.append("\(d.id)  \(position + 1) of \(list.count)  \(TerminalText.sanitize(d.displayName))")
            }
        } catch {
            throw Console.failure(error)
        }
        Console.out(lines.joined(separator: "\n"))
    }
}
