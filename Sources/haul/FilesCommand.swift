import ArgumentParser
import HaulCore

/// `haul files ID [LIST|all]`: a torrent's files, numbered as `--select-file` counts them, and
/// which are fetched; with LIST, fetches only those (at once, while it runs). In the UI,
/// `:files 1,3` acts on the selected download.
struct FilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Show a torrent's files, or choose which to fetch (e.g. 1,3-5 or all).",
        discussion:
            "Files are numbered from 1, as aria2's --select-file counts them. The list shows while the torrent "
            + "runs or seeds; the choice can be made any time and holds from then on."
    )

    @Argument(help: ArgumentHelp("The torrent (an id or unique prefix).", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("The files to fetch: 1,3-5, or all.", valueName: "list"))
    var list: String?

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func run() async throws {
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        do {
            let known = try await engine.snapshot().downloads.all
            let target = try DownloadSelector.resolve([id], among: known.map(\.id))[0]
            guard let download = known.first(where: { $0.id == target }), download.isTorrent else {
                throw InputError("\(target) is not a torrent: only a torrent has files to choose")
            }
            if let list {
                let selection = list == "all" ? nil : try FileSelection(list)
                try await engine.perform(.selectFiles(target, selection))
                try await engine.save()
                Console.out("\(target): fetching \(selection.map { "files \($0)" } ?? "every file")")
            }
            guard let details = try await engine.torrentDetails(target), !details.files.isEmpty else {
                if list == nil {
                    let chosen = download.request.selectedFiles.map { "files \($0)" } ?? "every file"
                    Console.out("\(target): \(chosen); the list shows while the torrent runs or seeds")
                }
                return
            }
            for (i, file) in details.files.enumerated() {
                let percent = file.size > 0 ? file.done * 100 / file.size : 100
                Console.out(
                    "\(i + 1)\t\(file.selected ? "[x]" : "[ ]")\t\(Formatting.bytes(file.size))\t\(percent)%\t"
                        + TerminalText.sanitize(file.path))
            }
        } catch {
            throw Console.failure(error)
        }
    }
}
