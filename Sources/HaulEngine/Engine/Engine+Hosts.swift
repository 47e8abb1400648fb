import HaulCore
import HaulStore

/// The per-host settings as the engine applies them: a download's own setting first, then the
/// host's (``HostSettings``), then the global one.
extension Engine {
    func connections(for download: Download) -> Int {
        download.connections ?? settings.hosts?.connections(for: URLParts(download.url)?.host) ?? settings.connections
    }

    func speedLimit(for download: Download) -> Int64? {
        download.speedLimit ?? settings.hosts?.speedLimit(for: URLParts(download.url)?.host)
    }

    /// New host settings reach running downloads at once (their headers, from their next request).
    func applyHostSettings() {
        for id in transfers.ids {
            guard let download = downloads[id] else { continue }
            transfers[id]?.connections.set(connections(for: download))
            transfers[id]?.gate.setRate(speedLimit(for: download))
        }
    }
}
