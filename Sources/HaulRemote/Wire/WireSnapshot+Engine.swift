import Foundation
import HaulCore
import HaulStore

extension WireSnapshot {
    /// What the server sends for `snapshot`.
    init(_ snapshot: EngineSnapshot) {
        self.init(
            downloads: DownloadListJSON.encode(snapshot.downloads), network: snapshot.network,
            connections: snapshot.connections, cookieFile: snapshot.cookieFile)
    }
}

extension EngineSnapshot {
    /// What the client reads back.
    init(_ wire: WireSnapshot) throws {
        self.init(
            downloads: try DownloadListJSON.decode(wire.downloads), network: wire.network,
            connections: wire.connections, cookieFile: wire.cookieFile)
    }
}
