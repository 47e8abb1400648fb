import HaulCore
import HaulStore

/// The aria2-compatible endpoint as the engine sees it: the engine keeps its settings in the
/// state file and tells the process hosting it of every change; that process serves it and
/// says where, which the header shows.
struct RPCEndpoint {
    /// Where the endpoint is served now; nil when it is not.
    var address: String?
    /// Whoever follows the settings (the hosting process).
    var followers: [Int: AsyncStream<RPCSettings?>.Continuation] = [:]
    var nextFollower = 0

    mutating func finishAll() {
        for follower in followers.values { follower.finish() }
        followers = [:]
    }
}

extension Engine {
    /// The endpoint's settings now, then every change (nil: off); ends when the engine shuts down.
    public func rpcSettingsChanges() -> AsyncStream<RPCSettings?> {
        let (stream, continuation) = AsyncStream<RPCSettings?>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(settings.rpc)
        guard phase != .shutDown else {
            continuation.finish()
            return stream
        }
        let key = rpc.nextFollower
        rpc.nextFollower += 1
        rpc.followers[key] = continuation
        continuation.onTermination = { _ in Task { await self.unfollowRPC(key) } }
        return stream
    }

    private func unfollowRPC(_ key: Int) { rpc.followers[key] = nil }

    /// Where the hosting process serves the endpoint now (nil: it does not), for the header.
    public func setRPCAddress(_ address: String?) {
        guard rpc.address != address else { return }
        rpc.address = address
        publishNetworkStatus()
    }

    func setRPC(_ new: RPCSettings?) {
        guard settings.rpc != new else { return }
        settings.rpc = new
        for follower in rpc.followers.values { follower.yield(new) }
        scheduleSave(after: configuration.transitionSaveDelay)
    }
}
