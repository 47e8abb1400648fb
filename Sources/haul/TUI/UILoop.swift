import Foundation
import HaulCore
import HaulEngine
import HaulTerminal
import HaulUI

/// The UI thread: the one thread that owns the terminal. It reads keys, drains the inbox,
/// and draws at most ~15 frames a second, and only when something changed.
final class UILoop {
    static let frameInterval = 1.0 / 15

    private let terminal: CursesTerminal
    private let controller: TUIController
    private let inbox: UIInbox
    private let engine: Engine
    private var running = true

    init(terminal: CursesTerminal, controller: TUIController, inbox: UIInbox, engine: Engine) {
        self.terminal = terminal
        self.controller = controller
        self.inbox = inbox
        self.engine = engine
    }

    func run() {
        var lastFrame = 0.0
        while running {
            if let key = terminal.readKey(milliseconds: 50) {
                handle(key)
                // A paste arrives as a burst: take it all before drawing.
                var burst = 0
                while running, burst < 4096, let more = terminal.readKey(milliseconds: 0) {
                    handle(more)
                    burst += 1
                }
            }
            for message in inbox.drain() {
                switch message {
                case .event(let event): controller.apply(event)
                case .report(let text, let isError): controller.report(text, isError: isError)
                case .engineStopped: running = false
                }
            }
            if inbox.stopRequested { running = false }
            let now = MonotonicClock.seconds()
            if now - lastFrame >= Self.frameInterval {
                let damage = controller.frame(now: now)
                if damage != .none {
                    terminal.draw(controller.grid, damage)
                    lastFrame = now
                }
            }
        }
    }

    private func handle(_ key: Key) {
        if key == .resize {
            let size = terminal.size
            controller.resize(width: size.width, height: size.height)
        }
        var commands: [EngineCommand] = []
        for effect in controller.handle(key) {
            switch effect {
            case .quit: running = false
            case .send(let command): commands.append(command)
            }
        }
        if !commands.isEmpty { send(commands) }
    }

    /// Performs the commands in order, off the UI thread; outcomes come back through the inbox.
    private func send(_ commands: [EngineCommand]) {
        let engine = self.engine
        let inbox = self.inbox
        Task {
            for command in commands {
                do {
                    let ids = try await engine.perform(command)
                    if case .add = command, let id = ids.first { inbox.push(.report("added \(id)", isError: false)) }
                } catch {
                    inbox.push(.report((error as? InputError)?.message ?? String(describing: error), isError: true))
                    return
                }
            }
        }
    }
}

enum MonotonicClock {
    static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
