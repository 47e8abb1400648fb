import ArgumentParser
import Foundation
import HaulStore
import HaulCore
import HaulEngine

struct MeteredCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metered",
        abstract: "Show or set the metered-network mode: off, on, or auto (NetworkManager decides).",
        discussion: "On a metered network only downloads allowed with 'haul add --allow-metered' (or M in the TUI) run; the others pause with 'waiting for unmetered network' and resume by themselves when the network is unmetered again. --limit caps the speed of the allowed ones while metered."
    )

    @Argument(help: ArgumentHelp("off, on or auto; omit to show the current mode.", valueName: "mode"))
    var mode: MeteredMode?

    @Option(name: .long, help: ArgumentHelp("Speed cap for allowed downloads while metered, e.g. 500K; 'none' removes it.", valueName: "rate"))
    var limit: String?

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        var cap: Int64??
        if let limit {
            if limit.lowercased() == "none" || limit == "0" {
                cap = .some(nil)
            } else if let bytes = Formatting.parseSize(limit), bytes > 0 {
                cap = .some(bytes)
            } else {
                throw InputError("--limit takes a speed such as 500K or 2M, or 'none'").reported()
            }
        }
        if mode != nil || cap != nil, let holder = StateLock.currentHolder(statePath: stateOptions.statePath) {
            // Another haul runs: hand it the change; it applies it at once.
            do {
                try ControlRequest(meteredMode: mode, meteredLimit: cap).write(statePath: stateOptions.statePath)
            } catch {
                Console.error("cannot reach the running haul (pid \(holder)): \(error)")
                throw ExitStatus.stateUnavailable
            }
            kill(holder, SIGUSR1)
            Console.out("metered: \(mode?.rawValue ?? "unchanged") — sent to the running haul (pid \(holder))")
            return
        }
        let engine = try stateOptions.openEngine()
        do {
            if let mode { try await engine.perform(.setMeteredMode(mode)) }
            if let cap { try await engine.perform(.setMeteredLimit(cap)) }
        } catch {
            throw error.reported()
        }
        await engine.saveNow()
        let status = await engine.refreshedNetworkStatus()
        let held = await engine.allDownloads.filter { $0.state == .paused && $0.pauseCause == .metered }.count
        var line = "metered: \(status.label)"
        if held > 0 { line += " — \(held) download(s) waiting for an unmetered network" }
        Console.out(line)
    }
}

extension MeteredMode: ExpressibleByArgument {}
