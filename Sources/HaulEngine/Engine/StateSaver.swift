import HaulCore
import HaulStore

/// Writes state snapshots off the engine actor, one at a time and never an older one over a
/// newer one, so encoding a large list never holds up transfers or events.
actor StateSaver {
    private let file: StateFile
    private var lastWritten: UInt64 = 0

    init(file: StateFile) {
        self.file = file
    }

    /// Writes `document`, with `progress` as the byte counts of running downloads, unless a
    /// newer snapshot was already written. Returns an error text.
    func write(_ document: StateDocument, progress: [DownloadID: Int64], sequence: UInt64) -> String? {
        guard sequence > lastWritten else { return nil }
        do {
            try file.save(document, progress: progress)
            lastWritten = sequence
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
