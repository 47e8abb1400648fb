/// Speeds sampled once a second, for the graphs: the header's last minute of the total speed,
/// and a download's whole life in the details view.
///
/// A `.window` keeps the last `capacity` seconds. A `.life` keeps the whole history in at most
/// `capacity` points: when full, neighbouring points are averaged in pairs and each point then
/// stands for twice as many seconds, so memory stays bounded however long a download runs.
public struct SpeedHistory: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case window
        case life
    }

    public let kind: Kind
    public let capacity: Int
    /// Bytes per second, oldest first.
    public private(set) var points: [Double] = []
    /// Seconds each point stands for (1 for a window).
    public private(set) var secondsPerPoint = 1
    /// Samples gathered towards the next point of a life history.
    private var pendingSum = 0.0
    private var pendingCount = 0

    public init(_ kind: Kind, capacity: Int) {
        precondition(capacity >= 2)
        self.kind = kind
        self.capacity = capacity
    }

    /// Adds one second's speed.
    public mutating func record(_ bytesPerSecond: Double) {
        switch kind {
        case .window:
            if points.count == capacity { points.removeFirst() }
            points.append(bytesPerSecond)
        case .life:
            pendingSum += bytesPerSecond
            pendingCount += 1
            guard pendingCount == secondsPerPoint else { return }
            points.append(pendingSum / Double(pendingCount))
            (pendingSum, pendingCount) = (0, 0)
            if points.count == capacity {
                points = stride(from: 0, to: points.count, by: 2).map { (points[$0] + points[$0 + 1]) / 2 }
                secondsPerPoint *= 2
            }
        }
    }

    /// How many seconds the history covers.
    public var seconds: Int { points.count * secondsPerPoint + pendingCount }
}

/// A row of block characters for a series of speeds, scaled to its highest (▁ is nothing moving,
/// █ the peak); `_.-:=+*#` where the terminal cannot draw blocks.
public enum Sparkline {
    static let blocks = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let ascii = ["_", ".", "-", ":", "=", "+", "*", "#"]

    /// `values` in at most `width` points: averaged in equal runs when there are more.
    public static func fit(_ values: [Double], width: Int) -> [Double] {
        guard width > 0, values.count > width else { return values }
        return (0..<width).map { i in
            let run = values[(i * values.count / width)..<((i + 1) * values.count / width)]
            return run.reduce(0, +) / Double(max(1, run.count))
        }
    }

    /// The last `width` values, right-aligned (spaces before a short history).
    public static func render(_ values: [Double], width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        let shown = values.suffix(width)
        let levels = unicode ? blocks : ascii
        let peak = shown.max() ?? 0
        var out = String(repeating: " ", count: width - shown.count)
        for value in shown {
            // Anything that moves is at least one step above nothing.
            let level = peak > 0 && value > 0 ? max(1, Int((value / peak * Double(levels.count - 1)).rounded())) : 0
            out += levels[level]
        }
        return out
    }
}
