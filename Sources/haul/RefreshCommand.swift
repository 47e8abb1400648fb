import ArgumentParser
import HaulCore

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Give a download a new link and keep what it has downloaded.",
        discussion:
            "For links that expire (signed CDN URLs, file hosts). If the new link serves the same file (the same "
            + "strong ETag, or the same size and Last-Modified, or the same size when the server sent neither), "
            + "the download continues by Range from where it stopped, every piece of it; otherwise it starts over "
            + "and says why. A failed download is queued again; the old link stays in its details."
    )

    @Argument(help: ArgumentHelp("The download (id or unique prefix).", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("Its new http:// or https:// URL.", valueName: "url"))
    var url: String

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func run() async throws {
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        let line: String
        do {
            let known = try await engine.snapshot().downloads.all.map(\.id)
            let resolved = try DownloadSelector.resolve([id], among: known)
            try await engine.perform(.refresh(resolved[0], url: url))
            try await engine.save()
            let download = try await engine.snapshot().downloads.all.first { $0.id == resolved[0] }
            let state = download.map { $0.state.isPaused ? "paused; resume it to go on" : $0.state.kind.rawValue } ?? ""
            line = "\(resolved[0])  new link: \(TerminalText.sanitize(Redaction.url(url)))  (\(state))"
        } catch {
            throw Console.failure(error)
        }
        Console.out(line)
    }
}
