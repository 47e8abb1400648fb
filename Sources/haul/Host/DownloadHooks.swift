import Foundation
import HaulCore
import HaulEngine
import Synchronization

/// What the owner of the engine does when a download finishes: runs the `--on-complete`
/// command with the file's path as its last argument (directly, never through a shell) and
/// shows a desktop notification when `notify-send` is installed.
final class CompletionHooks: Sendable {
    private let command: [String]?
    private let notify: Bool
    private let environment: [String: String]
    private let log: @Sendable (String) -> Void
    private let unannounced = Mutex<[String]>([])

    init(command: [String]?, environment: [String: String], log: @escaping @Sendable (String) -> Void) {
        self.command = command
        self.environment = environment
        self.log = log
        notify =
            environment["HAUL_NO_NOTIFY"] == nil && ProcessLauncher.isInstalled("notify-send", environment: environment)
    }

    var isActive: Bool { command != nil || notify }

    /// Watches the engine's events; returns the task doing so (cancel it to stop).
    func watch(_ engine: any EngineSession) async throws -> Task<Void, Never>? {
        guard isActive else { return nil }
        let attachment = try await engine.attach(ui: false)
        let alreadyFinished = Set(try attachment.snapshot.downloads.all.filter { $0.state == .finished }.map(\.id))
        return Task {
            var finished = alreadyFinished
            let flushing = notify ? Task { await flushNotifications() } : nil
            defer { flushing?.cancel() }
            for await event in attachment.events {
                guard case .updated(let download) = event, download.state == .finished,
                    let path = download.path, finished.insert(download.id).inserted
                else { continue }
                completed(download, path: path)
            }
        }
    }

    private func completed(_ download: Download, path: String) {
        if let command {
            let log = self.log
            do {
                let pid = try ProcessLauncher.spawn(command + [path], environment: environment)
                ProcessLauncher.reap(pid) { status in
                    if status != 0 {
                        log(
                            "--on-complete \(TerminalText.sanitize(command[0])) exited with \(status) for "
                                + "\(download.id)"
                        )
                    }
                }
            } catch {
                log("--on-complete: \(error.description)")
            }
        }
        if notify { unannounced.withLock { $0.append(TerminalText.sanitize(download.displayName)) } }
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
