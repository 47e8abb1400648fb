import FoundationEssentials
import HaulAria2Wire
import HaulCore

/// haul's own methods beside aria2's, for a haul TUI driving this haul from another machine:
/// the network status (metered mode, its cap and budget, the speed limit with its window) and
/// the commands aria2 has no call for. aria2's clients never call them.
extension Aria2Service {
    /// `haul.getNetwork()`: the network status, as JSON text.
    func haulNetwork() async throws(RPCError) -> JSONValue {
        do {
            let status = try await session.refreshedNetworkStatus()
            return .string(String(decoding: try JSONEncoder().encode(status), as: UTF8.self))
        } catch {
            throw Self.failure(error)
        }
    }

    /// `haul.command(json)`: one of haul's own commands, as JSON text. Only the metered ones
    /// and a speed limit's schedule: everything else has its aria2 method, and hooks, proxies
    /// and the RPC's own settings are never changed over RPC.
    func haulCommand(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let text = try call.required(0) { $0.string }
        guard let command = try? JSONDecoder().decode(EngineCommand.self, from: Data(text.utf8)) else {
            throw .failed("haul.command takes one of haul's commands as JSON")
        }
        switch command {
        case .setMeteredMode, .setMeteredLimit, .setMeteredBudget, .setSpeedLimit:
            return try await perform(command, &scope, answer: "OK")
        case .allowMetered(.ids(let gids), let allowed):
            var ids: [DownloadID] = []
            for gid in gids { ids.append(try await find(gid.rawValue, &scope).download.id) }
            return try await perform(.allowMetered(.ids(ids), allowed), &scope, answer: "OK")
        case .allowMetered(.all, let allowed):
            return try await perform(.allowMetered(.all, allowed), &scope, answer: "OK")
        default:
            throw .failed("haul.command does not change that over RPC")
        }
    }
}
