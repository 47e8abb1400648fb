import HaulCore
import HaulStore

/// The engine's state file and what keeps it up to date: the lock that makes this process its
/// one writer, the journal of what must survive a crash before the next save, the saver that
/// encodes off the actor, and when the last save was and what it held.
struct StatePersistence {
    let file: StateFile
    let lock: StateLock
    let journal: StateJournal
    let saver: StateSaver
    /// A save is on its way.
    var scheduled = false
    /// Numbers the saves, so an older snapshot is never written over a newer one.
    var sequence: UInt64 = 0
    /// When the last save began (on the engine's clock).
    var lastSave: Duration
    /// How long the last save took, from the snapshot to the file on disk.
    var lastSaveCost: Duration = .zero
    /// Saves start no closer together than this many times the last one's cost: however many
    /// downloads the state holds, saving it takes at most about a tenth of the time. What must
    /// survive a crash in between is in the journal.
    static let spacingPerCost = 10

    /// How long a save asked for `delay` from `now` waits: `delay`, or until the last save's
    /// spacing has passed if that is later.
    func wait(for delay: Duration, now: Duration) -> Duration {
        Self.wait(for: delay, now: now, lastSave: lastSave, lastSaveCost: lastSaveCost)
    }

    static func wait(for delay: Duration, now: Duration, lastSave: Duration, lastSaveCost: Duration) -> Duration {
        max(delay, lastSave + lastSaveCost * spacingPerCost - now)
    }
    /// What the state file holds as of the last save that succeeded; nil when it is behind.
    var saved: SavedMark?
    /// The last error saving the state file, if the most recent save failed.
    var error: String?

    /// What a save writes, told by counts and values rather than by copying the downloads.
    struct SavedMark: Equatable {
        var changes: Int
        var settings: StateDocument.Settings
        var away: AwayReport?
        var journal: Int
    }

    init(file: StateFile, lock: StateLock, journalCount: Int, now: Duration) {
        self.file = file
        self.lock = lock
        journal = StateJournal(statePath: file.path, count: journalCount)
        saver = StateSaver(file: file)
        lastSave = now
    }
}
