import ArgumentParser
import FoundationEssentials
import HaulCore

struct MeteredCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metered",
        abstract: "Show or set the metered-network mode: off, on, or auto (NetworkManager decides).",
        discussion:
            "On a metered network only downloads allowed with 'haul add --allow-metered' (or M in the TUI) run; the "
            + "others pause with 'waiting for unmetered network' and resume by themselves when the network is "
            + "unmetered again. --limit caps the speed of the allowed ones while metered. --budget counts what is "
            + "received while metered: once a day's or a month's budget is used, the allowed downloads pause too "
            + "and resume at local midnight (or the first of the month), on an unmetered network, or when the "
            + "budget is raised."
    )

    @Argument(help: ArgumentHelp("off, on or auto; omit to show the current mode.", valueName: "mode"))
    var mode: MeteredMode?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Speed cap for allowed downloads while metered, e.g. 500K; 'none' removes it.", valueName: "rate"))
    var limit: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Data budget while metered, e.g. 500M/day or 10G/month; 'none' lifts it.", valueName: "size")
    )
    var budget: String?

    @Flag(name: .long, help: "Print the status as JSON for scripts.")
    var json = false

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func run() async throws {
        var cap: Int64??
        if let limit {
            if limit.lowercased() == "none" || limit == "0" {
                cap = .some(nil)
            } else if let bytes = Formatting.parseRate(limit), bytes > 0 {
                cap = .some(bytes)
            } else {
                throw InputError("--limit takes a speed such as 500K or 2M, or 'none'").reported()
            }
        }
        var newBudget: DataBudget??
        if let budget {
            if budget.lowercased() == "none" {
                newBudget = .some(nil)
            } else if let parsed = DataBudget(budget) {
                newBudget = .some(parsed)
            } else {
                throw InputError("--budget takes a size per day or month, such as 500M/day or 10G/month, or 'none'")
                    .reported()
            }
        }
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        var line: String
        do {
            if let mode { try await engine.perform(.setMeteredMode(mode)) }
            if let cap { try await engine.perform(.setMeteredLimit(cap)) }
            if let newBudget { try await engine.perform(.setMeteredBudget(newBudget)) }
            try await engine.save()
            let status = try await engine.refreshedNetworkStatus()
            let held = try await engine.snapshot().downloads.all.filter {
                $0.state.isPaused && $0.pauseCause == .metered
            }
            .count
            let waiting = held > 0 ? " — \(held) download(s) waiting for an unmetered network" : ""
            line = "metered: \(status.label)" + waiting
            if let used = status.budgetLabel { line += "\nmetered data budget: \(status.budget!.label), used \(used)" }
            if json { line = MeteredStatusJSON.text(status) }
        } catch {
            throw Console.failure(error)
        }
        Console.out(line)
    }
}

extension MeteredMode: ExpressibleByArgument {}

/// What `haul metered --json` prints.
struct MeteredStatusJSON: Encodable {
    var mode: MeteredMode
    var metered: Bool
    /// The metered speed cap in bytes per second.
    var cap: Int64?
    var budget: Int64?
    var budgetPeriod: BudgetPeriod?
    var budgetUsed: Int64

    static func text(_ status: NetworkStatus) -> String {
        let value = MeteredStatusJSON(
            mode: status.mode, metered: status.isMetered, cap: status.limit, budget: status.budget?.bytes,
            budgetPeriod: status.budget?.period, budgetUsed: status.budgetUsed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mode, forKey: .mode)
        try c.encode(metered, forKey: .metered)
        try c.encode(cap, forKey: .cap)
        try c.encode(budget, forKey: .budget)
        try c.encode(budgetPeriod, forKey: .budgetPeriod)
        try c.encode(budgetUsed, forKey: .budgetUsed)
    }

    private enum CodingKeys: String, CodingKey { case mode, metered, cap, budget, budgetPeriod, budgetUsed }
}
