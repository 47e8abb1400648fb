/// An array stored in chunks of ``chunkCapacity`` elements, each chunk its own copy-on-write
/// array: writing one element of a shared copy copies that element's chunk, not every element,
/// and appending never moves what is already stored.
///
/// The engine's downloads are kept so: a save encoding them, or a UI reading a snapshot of
/// them, shares the list while the engine goes on writing single downloads.
public struct ChunkedArray<Element> {
    /// How many elements a chunk holds (a power of two, so an index splits with a shift).
    public static var chunkCapacity: Int { 1 << shift }
    private static var shift: Int { 10 }
    private static var mask: Int { chunkCapacity - 1 }

    /// Every chunk is full but the last, which is never empty.
    private var chunks: [[Element]] = []
    public private(set) var count = 0

    public init() {}

    public mutating func append(_ element: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkCapacity)
            chunk.append(element)
            chunks.append(chunk)
        } else {
            chunks[chunks.count - 1].append(element)
        }
        count += 1
    }
}

extension ChunkedArray {
    /// Lends each element to `body` in order, copying none: a pass over 100,000 downloads that
    /// copied each would retain every one of its fields, most of the pass's time.
    public func forEachElement(_ body: (Element) throws -> Void) rethrows {
        for c in chunks.indices {
            for i in chunks[c].indices { try body(chunks[c][i]) }
        }
    }

    /// How many chunks this array and `other` hold in the same storage: those a copy has not
    /// written since it was made.
    public func sharedChunks(with other: Self) -> Int {
        zip(chunks, other.chunks).count { a, b in
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
        }
    }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedArray index out of range")
            return chunks[position >> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "ChunkedArray index out of range")
            yield &chunks[position >> Self.shift][position & Self.mask]
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    /// Rebuilds the chunks from the one holding the first element replaced: every element after
    /// it moves. Appending (``append(_:)``) touches only the last chunk.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "ChunkedArray range out of range")
        let first = subrange.lowerBound >> Self.shift
        let kept = first << Self.shift
        var tail: [Element] = []
        tail.reserveCapacity(count - kept - subrange.count + newElements.count)
        for i in kept..<subrange.lowerBound { tail.append(self[i]) }
        tail.append(contentsOf: newElements)
        for i in subrange.upperBound..<count { tail.append(self[i]) }
        chunks.removeSubrange(first...)
        count = kept
        for element in tail { append(element) }
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.count == b.count && a.elementsEqual(b) }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}

extension ChunkedArray: Codable where Element: Codable {
    /// Coded as a plain array.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd { append(try container.decode(Element.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
