import ArgumentParser
import HaulCore

/// `ID…` or `--all`, shared by the commands that act on existing downloads.
struct SelectionArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Download ids, or unique prefixes of them (see 'haul ls').", valueName: "id"))
    var ids: [String] = []

    @Flag(name: .long, help: "Act on every download.")
    var all = false

    func validate() throws {
        if ids.isEmpty && !all { throw ValidationError("give one or more ids, or --all") }
        if !ids.isEmpty && all { throw ValidationError("give ids or --all, not both") }
    }

    func selection(among downloads: [Download]) throws -> DownloadSelection {
        if all { return .all }
        do {
            return .ids(try DownloadSelector.resolve(ids, among: downloads.map(\.id)))
        } catch {
            throw error.reported()
        }
    }
}

/// Opens the engine, applies one command, saves, and prints the outcome per download.
protocol ControlCommand: AsyncParsableCommand {
    var selection: SelectionArguments { get }
    var stateOptions: StateOptions { get }
    var connectOptions: ConnectOptions { get }
    func command(for selection: DownloadSelection) -> EngineCommand
    func commands(for selection: DownloadSelection) -> [EngineCommand]
    func describe(old: Download, new: Download?) -> String
    /// Whether a refusal the engine gives after carrying out the rest of the command (a resume of
    /// a finished torrent that cannot seed) still leaves the other downloads' lines to print.
    var appliesTheRestWhenRefused: Bool { get }
}

extension ControlCommand {
    func commands(for selection: DownloadSelection) -> [EngineCommand] { [command(for: selection)] }
    func command(for selection: DownloadSelection) -> EngineCommand { commands(for: selection)[0] }
    var appliesTheRestWhenRefused: Bool { false }

    func run() async throws {
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        var ids: [DownloadID] = []
        // Only the downloads the command touched are kept: with 100,000 in the state, two whole
        // lists and their dictionaries were most of the command's time and memory.
        var before: [DownloadID: Download] = [:]
        var now: [DownloadID: Download] = [:]
        var refusal: InputError?
        do {
            var downloads = try await engine.snapshot().downloads.all
            let selected = try selection.selection(among: downloads)
            for command in commands(for: selected) {
                do {
                    ids = try await engine.perform(command)
                } catch let error as InputError where appliesTheRestWhenRefused && error != .engineStopped {
                    guard case .ids(let named) = selected else { throw error }
                    refusal = error
                    ids = named
                }
            }
            let touched = Set(ids)
            for d in downloads where touched.contains(d.id) { before[d.id] = d }
            downloads = []
            try await engine.save()
            for d in try await engine.snapshot().downloads.all where touched.contains(d.id) { now[d.id] = d }
            if self is ResumeCommand || self is RetryCommand, case .remote(let owner) = await engine.access,
                !ids.isEmpty
            {
                OwnerNotes.sayRunsUntilItsOwnAreDone(owner)
            }
            if self is ResumeCommand, try await engine.refreshedNetworkStatus().isMetered {
                let held = now.values.filter { before[$0.id]?.state.isPaused == true && !$0.allowMetered }.count
                if held > 0 {
                    Console.warn(
                        "the network is metered: \(held) download(s) will wait for an unmetered network (use "
                            + "--allow-metered to allow them)"
                    )
                }
            }
        } catch {
            throw Console.failure(error)
        }
        for id in ids {
            guard let old = before[id] else { continue }
            Console.out(describe(old: old, new: now[id]))
        }
        if let refusal { throw Console.failure(refusal) }
    }

    func describe(old: Download, new: Download?) -> String { describeOutcome(old: old, new: new) }

    func describeOutcome(old: Download, new: Download?) -> String {
        let name = TerminalText.sanitize(old.displayName)
        guard let new else { return "\(old.id)  removed  \(name)" }
        let state =
            new.reason.map { "\(new.state.kind.rawValue) (\(TerminalText.sanitize($0)))" } ?? new.state.kind.rawValue
        return "\(new.id)  \(state)  \(name)"
    }
}

struct PauseCommand: ControlCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause downloads (they keep their data).")
    @OptionGroup var selection: SelectionArguments
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    func command(for selection: DownloadSelection) -> EngineCommand { .pause(selection) }

    /// A finished torrent stays finished: the line says that its seeding ended, and how to start it again.
    func describe(old: Download, new: Download?) -> String {
        let line = describeOutcome(old: old, new: new)
        guard let before = old.torrent, before.seeding || before.seedsUntilPaused,
            new?.torrent?.seedingEnded == true
        else { return line }
        return line + "  — seeds no more; 'haul resume \(old.id)' seeds it again"
    }
}

struct ResumeCommand: ControlCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Queue paused downloads again.",
        discussion:
            "While the network is metered, a download without the allowance waits for an unmetered network; "
            + "--allow-metered gives it the allowance. A finished torrent named by its id seeds again, past its "
            + "seed ratio and time, until it is paused; --all leaves finished torrents alone."
    )
    @OptionGroup var selection: SelectionArguments
    @Flag(name: .long, help: "Also allow these downloads on a metered network.")
    var allowMetered = false
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    func commands(for selection: DownloadSelection) -> [EngineCommand] {
        (allowMetered ? [.allowMetered(selection, true)] : []) + [.resume(selection)]
    }
    var appliesTheRestWhenRefused: Bool { true }

    /// A failed download is not resumed (it is retried): the line says how, so the command that
    /// changed nothing does not look as if it had worked. A finished torrent seeds again.
    func describe(old: Download, new: Download?) -> String {
        let line = describeOutcome(old: old, new: new)
        if new?.torrent?.seedsUntilPaused == true, old.torrent?.seedsUntilPaused != true {
            return line + "  — seeds again until paused, in the daemon or the UI"
        }
        guard old.state.isFailed, new?.state.isFailed == true else { return line }
        return line + "  — failed downloads start again with 'haul retry \(old.id)'"
    }
}

struct CancelCommand: ControlCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Stop downloads and delete their partial data.",
        discussion:
            "Finished downloads are not touched. A cancelled download stays in the list; 'haul retry' starts it again."
    )
    @OptionGroup var selection: SelectionArguments
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    func command(for selection: DownloadSelection) -> EngineCommand { .cancel(selection) }
}

struct RetryCommand: ControlCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Queue failed (or paused) downloads again.",
        discussion: "Named by id, a finished download whose file was deleted since is fetched again.")
    @OptionGroup var selection: SelectionArguments
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    func command(for selection: DownloadSelection) -> EngineCommand { .retry(selection) }
}

struct RemoveCommand: ControlCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Take downloads off the list.",
        discussion:
            "Unfinished downloads lose their partial data. A finished file stays on disk unless --delete-file is given."
    )
    @OptionGroup var selection: SelectionArguments
    @Flag(name: .long, help: "Also delete the downloaded files of finished downloads.")
    var deleteFile = false
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    func command(for selection: DownloadSelection) -> EngineCommand { .remove(selection, deleteFiles: deleteFile) }

    func describe(old: Download, new: Download?) -> String {
        var line = "\(old.id)  removed  \(TerminalText.sanitize(old.displayName))"
        if old.state == .finished, let path = old.path {
            line += deleteFile ? "  (file deleted)" : "  (file kept at \(TerminalText.sanitize(path)))"
        }
        return line
    }
}
