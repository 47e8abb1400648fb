import FoundationEssentials
import HaulCore
import HaulStore

extension WireSnapshot {
    /// What the server sends for `snapshot`.
    init(_ snapshot: EngineSnapshot) throws {
        self.init(
            downloads: try DownloadListJSON.encode(snapshot.downloads), count: snapshot.downloads.count,
            network: snapshot.network,
            connections: snapshot.connections, cookieFile: snapshot.cookieFile, rpc: snapshot.rpc,
            concurrency: snapshot.concurrency, hooks: snapshot.hooks, proxies: snapshot.proxies,
            hosts: snapshot.hosts, torrents: snapshot.torrents)
    }
}

extension EngineSnapshot {
    /// What the client reads back: the downloads are decoded as they are read.
    init(_ wire: WireSnapshot) {
        let bytes = wire.downloads
        self.init(
            downloads: DownloadList(count: wire.count) { each in try DownloadListJSON.forEach(in: bytes, each) },
            network: wire.network, connections: wire.connections, cookieFile: wire.cookieFile, rpc: wire.rpc,
            concurrency: wire.concurrency, hooks: wire.hooks, proxies: wire.proxies,
            hosts: wire.hosts, torrents: wire.torrents)
    }
}
