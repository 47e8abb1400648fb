import ArgumentParser
import Foundation
import HaulCore

struct MeteredCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metered",
        abstract: "Show or set the metered-network mode: off, on, or auto (NetworkManager decides).",
        discussion:
            "On a metered network only downloads allowed with 'haul add --allow-metered' (or M in the TUI) run; the "
            + "others pause with 'waiting for unmetered network' and resume by themselves when the network is "
            + "unmetered again. --limit caps the speed of the allowed ones while metered."
    )

    @Argument(help: ArgumentHelp("off, on or auto; omit to show the current mode.", valueName: "mode"))
    var mode: MeteredMode?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Speed cap for allowed downloads while metered, e.g. 500K; 'none' removes it.", valueName: "rate"))
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
        let engine = try await EngineAccess.open(stateOptions).session
        let line: String
        do {
            if let mode { try await engine.perform(.setMeteredMode(mode)) }
            if let cap { try await engine.perform(.setMeteredLimit(cap)) }
            try await engine.save()
            let status = try await engine.refreshedNetworkStatus()
            let held = try await engine.snapshot().downloads.filter { $0.state == .paused && $0.pauseCause == .metered }
                .count
            let waiting = held > 0 ? " — \(held) download(s) waiting for an unmetered network" : ""
            line = "metered: \(status.label)" + waiting
        } catch {
            throw Console.failure(error)
        }
        Console.out(line)
    }
}

extension MeteredMode: ExpressibleByArgument {}
