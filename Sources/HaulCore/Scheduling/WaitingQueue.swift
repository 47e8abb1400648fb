/// The waiting downloads in queue order (lowest queue position first, ties by id), so that the
/// scheduler finds the next ones without looking at all of them: with 100,000 queued
/// downloads a scan per start made a run quadratic.
///
/// A binary min-heap with lazy removal: removing only forgets the id; its heap entry is dropped
/// when it comes to the top, and the heap is rebuilt when stale entries outnumber live ones.
public struct WaitingQueue: Sendable, Equatable {
    private struct Entry: Sendable, Comparable {
        let order: UInt64
        let id: DownloadID
        static func < (a: Entry, b: Entry) -> Bool { (a.order, a.id) < (b.order, b.id) }
    }

    private var positions: [DownloadID: UInt64] = [:]
    private var heap: [Entry] = []

    public init() {}

    public var count: Int { positions.count }
    public var isEmpty: Bool { positions.isEmpty }

    /// The queue position of `id`, nil when it is not waiting.
    public subscript(id: DownloadID) -> UInt64? { positions[id] }

    /// Adds `id` at `order`, or moves it there.
    public mutating func insert(_ id: DownloadID, order: UInt64) {
        guard positions.updateValue(order, forKey: id) != order else { return }
        push(Entry(order: order, id: id))
        compactIfMostlyStale()
    }

    public mutating func remove(_ id: DownloadID) {
        guard positions.removeValue(forKey: id) != nil else { return }
        compactIfMostlyStale()
    }

    /// The first `k` waiting downloads, in queue order; they stay queued.
    public mutating func first(_ k: Int) -> [DownloadID] {
        first(k) { _ in true }
    }

    /// The first `k` of `ids` that are waiting, in queue order (for a run that fetches only
    /// some downloads, as `haul URL` does).
    public mutating func first(_ k: Int, among ids: Set<DownloadID>) -> [DownloadID] {
        guard k > 0 else { return [] }
        // A few of a long queue are looked up and sorted; when they are a good part of it, the
        // queue is walked in order, which stops at the first `k` instead of sorting them all
        // at every start (a `haul -i` of 1,000 URLs sorted 1,000 entries per file).
        if ids.count * 4 < positions.count {
            let waiting = ids.compactMap { id in positions[id].map { Entry(order: $0, id: id) } }
            return waiting.sorted().prefix(k).map(\.id)
        }
        return first(k) { ids.contains($0) }
    }

    /// The first `k` waiting downloads `wanted` accepts, in queue order; every entry taken off
    /// the heap on the way goes back.
    private mutating func first(_ k: Int, where wanted: (DownloadID) -> Bool) -> [DownloadID] {
        var popped: [Entry] = []
        var seen = Set<DownloadID>()
        var taken: [DownloadID] = []
        while taken.count < k, let top = heap.first {
            pop()
            // An entry whose id was removed or moved since is stale; one re-added at the same
            // position can be there twice.
            guard positions[top.id] == top.order, seen.insert(top.id).inserted else { continue }
            popped.append(top)
            if wanted(top.id) { taken.append(top.id) }
        }
        for entry in popped { push(entry) }
        return taken
    }

    public static func == (a: WaitingQueue, b: WaitingQueue) -> Bool { a.positions == b.positions }

    // MARK: Heap

    private mutating func compactIfMostlyStale() {
        guard heap.count > 2 * positions.count + 64 else { return }
        heap = positions.map { Entry(order: $0.value, id: $0.key) }.sorted() // a sorted array is a heap
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
