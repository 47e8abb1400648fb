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
