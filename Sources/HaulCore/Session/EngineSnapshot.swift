/// The downloads and the network status at one moment.
public struct EngineSnapshot: Codable, Sendable, Equatable {
    public var downloads: [Download]
    public var network: NetworkStatus
    /// The saved default of connections per download.
    public var connections: Int?
    /// The saved default cookies.txt file.
    public var cookieFile: String?

    public init(downloads: [Download], network: NetworkStatus, connections: Int? = nil, cookieFile: String? = nil) {
        self.downloads = downloads
        self.network = network
        self.connections = connections
        self.cookieFile = cookieFile
    }
}
