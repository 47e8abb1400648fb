import FoundationEssentials

/// Something about a download the user should know while it goes on, as a value; ``ReasonText``
/// turns it into words when it is shown, so a retry's countdown is always current. Indirect for
/// the reason ``FailureReason`` is.
public indirect enum Notice: Sendable, Equatable, Hashable {
    /// The last attempt failed and the next one starts at `at`.
    case retrying(because: FailureReason, at: Date, attempt: Int, of: Int)
    /// The transfer started over from the first byte.
    case startedOver(StartOverReason)
    /// The server turned away a connection of a segmented download (ranges refused, 403, 429,
    /// 503…): it goes on with `connections` at most.
    case fewerConnections(Int, because: FailureReason)
    /// A hold's words as an older haul kept them (the budget used, `used` of `budget` bytes in
    /// the period): read from its state file into the pause's cause, never made now.
    case budgetUsed(used: Int64, budget: Int64, period: BudgetPeriod)
    /// A hold's words as an older haul kept them (the schedule holds until `minute` after
    /// midnight): read into the pause's cause, never made now.
    case heldUntil(minute: Int)
    /// A new link served another file than the bytes on disk are of (`size`, was `was`, when
    /// known): the download started over.
    case otherFileAtNewLink(size: Int64?, was: Int64?)
    /// A finished torrent that was to seed cannot: `why` ends the sentence ("its files are no
    /// longer at …").
    case cannotSeed(why: String)
    /// An attempt failed while the machine had no network (no default route): not counted as
    /// an attempt, the download waits for the network to come back.
    case waitingForNetwork(because: FailureReason)
    /// What an older haul stored as plain text.
    case text(String)

    /// A hold's words from an older state file (see ``PauseCause``, which carries them now).
    public var isHold: Bool {
        switch self {
        case .budgetUsed, .heldUntil: return true
        case .retrying, .startedOver, .fewerConnections, .otherFileAtNewLink, .cannotSeed, .waitingForNetwork, .text:
            return false
        }
    }
}

/// Why a resume became a download from the first byte.
public enum StartOverReason: String, Codable, Sendable, Equatable, Hashable {
    case remoteChanged
    case rangesIgnored
    case rangeMismatch
    case partLargerThanRemote
    /// The `.part` did not hold every byte the download had recorded (cut or emptied since).
    case partNotWhole
}
