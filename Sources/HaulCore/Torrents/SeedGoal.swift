/// A torrent's own end to its seeding, over the saved one (`haul torrents`): aria2's
/// per-download `seed-ratio` and `seed-time`.
public struct SeedGoal: Sendable, Equatable, Codable {
    /// Uploaded over downloaded at which seeding stops; nil: the saved ratio.
    public var ratio: Double?
    /// Minutes of seeding after which it stops; 0 seeds not at all, as in aria2; nil: the saved
    /// time.
    public var minutes: Int?

    public init(ratio: Double? = nil, minutes: Int? = nil) {
        self.ratio = ratio
        self.minutes = minutes
    }

    /// Whether it says nothing of its own.
    public var isEmpty: Bool { ratio == nil && minutes == nil }

    /// The goal with `other`'s parts over its own.
    public func merged(with other: SeedGoal) -> SeedGoal {
        SeedGoal(ratio: other.ratio ?? ratio, minutes: other.minutes ?? minutes)
    }

    /// A ratio as aria2 and haul's commands give it ("1.5"), or why it is not one.
    public static func ratio(parsing text: String) throws(InputError) -> Double {
        guard let ratio = Double(text), ratio >= 0, ratio.isFinite else {
            throw InputError("'\(TerminalText.sanitize(text))' is not a seed ratio (0 or more, e.g. 1.5)")
        }
        return ratio
    }

    /// Minutes as aria2 and haul's commands give them ("90"), or why they are not.
    public static func minutes(parsing text: String) throws(InputError) -> Int {
        guard let minutes = Int(text), minutes >= 0 else {
            throw InputError("'\(TerminalText.sanitize(text))' is not a seed time (whole minutes, 0 or more)")
        }
        return minutes
    }
}
