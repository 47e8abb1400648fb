import FoundationEssentials
import Glibc
import HaulAria2Wire
import HaulCore
import HaulEngine
import HaulRPC
import Synchronization

/// What the owner of the engine does when a download finishes or fails and when the queue
/// drains: runs the hooks (the saved ones, with this process's own flags in their place), and
/// shows a desktop notification for finished downloads when `notify-send` is installed.
final class DownloadHooks: Sendable {
    /// Hooks still running when the owner stops get this long before they are stopped.
    static let stopGrace: Duration = .seconds(10)

    private let flags: ProcessHooks
    private let notify: Bool
    private let environment: [String: String]
    private let log: @Sendable (String) -> Void
    private let output: @Sendable (String) -> Void
    private let unannounced = Mutex<[String]>([])
    private let running = Mutex<[ObjectIdentifier: HookRunner]>([:])
    private let queue = Mutex(QueueState())

    private struct QueueState {
        /// Whether a download ran since the queue last drained.
        var busy = false
        /// The queue-empty hook's last run: not a child of the watch, whose end (the owner
        /// stopping) must not cancel it, and claimed with `busy` under one lock.
        var hook: Task<Void, Never>?
    }

    /// `log` takes what goes wrong with a hook; `output` each line a hook writes (`log` when nil).
    init(
        flags: ProcessHooks, environment: [String: String], log: @escaping @Sendable (String) -> Void,
        output: (@Sendable (String) -> Void)? = nil
    ) {
        self.flags = flags
        // What a service manager passed to this process is not a hook's.
        self.environment = environment.filter {
            !["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "JOURNAL_STREAM"].contains($0.key)
        }
        self.log = log
        self.output = output ?? log
        notify =
            environment["HAUL_NO_NOTIFY"] == nil && ProcessLauncher.isInstalled("notify-send", environment: environment)
    }

    /// Watches the engine's events; returns the task doing so (cancel it to stop).
    func watch(_ engine: Engine) async -> Task<Void, Never> {
        let attachment = await engine.attach(ui: false)
        var settled: Set<DownloadID> = []
        try? attachment.snapshot.downloads.forEachDownload { d in
            if d.state == .finished || d.state.kind == .failed { settled.insert(d.id) }
        }
        let idle = await engine.isIdle
        queue.withLock { $0.busy = !idle }
        return Task {
            var settled = settled
            let flushing = notify ? Task { await flushNotifications() } : nil
            let draining = Task { await watchQueue(engine) }
            defer {
                flushing?.cancel()
                draining.cancel()
            }
            for await burst in attachment.events.bursts {
                for event in burst {
                    guard case .updated(let download) = event else { continue }
                    if download.state == .downloading { queue.withLock { $0.busy = true } }
                    await settle(download, &settled, engine)
                }
            }
        }
    }

    /// A download that finished or failed (not one the user cancelled) runs its hook once.
    private func settle(_ download: Download, _ settled: inout Set<DownloadID>, _ engine: Engine) async {
        switch download.state {
        case .finished:
            guard settled.insert(download.id).inserted else { return }
            await run(.complete, for: download, engine)
            if notify { unannounced.withLock { $0.append(TerminalText.sanitize(download.displayName)) } }
        case .failed where download.failureReason != .cancelled:
            guard settled.insert(download.id).inserted else { return }
            await run(.error, for: download, engine)
        case .waiting, .downloading:
            settled.remove(download.id)
        default:
            return
        }
    }

    /// Runs the queue-empty hook each time the queue drains after a download ran, once the
    /// downloads' hooks have ended. Looked at four times a second: the engine is idle only once
    /// its transfers have ended, which comes after the events that finish them.
    private func watchQueue(_ engine: Engine) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            guard queue.withLock({ $0.busy }), await engine.isIdle else { continue }
            await queueDrained(engine)
        }
    }

    /// The queue drained: runs its hook, unless it already ran since a download last ran (the
    /// watch and the owner's stop may both get here; only one runs it).
    func queueDrained(_ engine: Engine) async {
        let hook = queue.withLock { state -> Task<Void, Never>? in
            guard state.busy else { return nil }
            state.busy = false
            let hook = Task {
                // After the downloads' own hooks: a suspend must not cut an upload short.
                for hook in running.withLock({ Array($0.values) }) { await hook.wait() }
                await run(.queueEmpty, for: nil, engine)
            }
            state.hook = hook
            return hook
        }
        await hook?.value
    }

    private func run(_ event: HookSettings.Event, for download: Download?, _ engine: Engine) async {
        let settings = (await engine.hookSettings ?? HookSettings()).overridden(
            by: flags.settings, argumentsGiven: flags.argumentsGiven, timeLimitGiven: flags.timeLimitGiven)
        let gid = download.map { GID.of($0.id) } ?? ""
        let path = download.map { $0.path ?? $0.partPath ?? "" } ?? ""
        guard let arguments = settings.invocation(event, gid: gid, path: path) else { return }
        var environment = self.environment
        environment["HAUL_EVENT"] = event.rawValue
        if let download {
            environment["HAUL_ID"] = download.id.rawValue
            environment["HAUL_GID"] = gid
            environment["HAUL_PATH"] = path
            environment["HAUL_URL"] = Redaction.url(download.url)
            if let reason = download.reason, event == .error { environment["HAUL_REASON"] = reason }
        }
        let label = "--\(event.rawValue) \(TerminalText.sanitize(arguments[0]))"
        do {
            let runner = try HookRunner(
                arguments, label: label, environment: environment, timeLimit: settings.timeLimit, log: log,
                output: output)
            let key = ObjectIdentifier(runner)
            running.withLock { $0[key] = runner }
            Task {
                await runner.wait()
                _ = running.withLock { $0.removeValue(forKey: key) }
            }
        } catch {
            log("\(label): \(error.description)")
        }
    }

    /// When the owner stops: hooks still running get ``stopGrace``, then are stopped.
    func finish() async {
        await queue.withLock { $0.hook }?.value
        let hooks = running.withLock { Array($0.values) }
        guard !hooks.isEmpty else { return announce() }
        let waiting = Task {
            for hook in hooks { await hook.wait() }
        }
        let deadline = Task {
            try? await Task.sleep(for: Self.stopGrace)
            for hook in hooks where hook.signal(SIGTERM) {
                log("\(hook.label) was stopped: haul is stopping")
            }
        }
        await waiting.value
        deadline.cancel()
        announce()
    }

    /// One notification a second at most: downloads finishing together share one.
    private func flushNotifications() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            announce()
        }
    }

    /// Shows the notification for downloads not announced yet (also called when the host stops).
    func announce() {
        let names = unannounced.withLock { names in
            defer { names = [] }
            return names
        }
        guard !names.isEmpty else { return }
        let title = names.count == 1 ? "Download finished" : "\(names.count) downloads finished"
        let body = names.prefix(5).joined(separator: "\n") + (names.count > 5 ? "\n…" : "")
        if let pid = try? ProcessLauncher.spawn(
            ["notify-send", "--app-name=haul", title, body], environment: environment)
        {
            ProcessLauncher.reap(pid)
        }
    }
}
