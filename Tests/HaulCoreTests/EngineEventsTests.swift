import HaulCore
import Synchronization
import XCTest

@testable import HaulCore

/// The event stream keeps order across bursts, ends in each of the ways it can, and tells the
/// producer once when it has ended.
final class EngineEventsTests: XCTestCase {
    func testBurstsAndSingleEventsArriveInOrderAndFinishingKeepsWhatWasSent() async {
        let (stream, sender) = EngineEvents.makeStream()
        sender.send([notice(1), notice(2)])
        sender.send(notice(3))
        sender.send([])
        sender.send([notice(4), notice(5), notice(6)])
        sender.finish()
        sender.send(notice(7))
        let events = await all(stream)
        XCTAssertEqual(events, (1...6).map(notice), "nothing sent after finish arrives")
    }

    func testBurstsComeWholeAsTheyWereSentAndEndAfterFinish() async {
        let (stream, sender) = EngineEvents.makeStream()
        sender.send([notice(1), notice(2)])
        sender.send(notice(3))
        var bursts: [[EngineEvent]] = []
        var iterator = stream.bursts.makeAsyncIterator()
        if let burst = await iterator.next() { bursts.append(burst) }
        sender.send([notice(4)])
        sender.finish()
        while let burst = await iterator.next() { bursts.append(burst) }
        XCTAssertEqual(bursts, [[notice(1), notice(2)], [notice(3)], [notice(4)]])
    }

    func testAWaitingConsumerIsWokenByTheNextBurst() async {
        let (stream, sender) = EngineEvents.makeStream()
        let consumer = Task { await all(stream) }
        // Let the consumer reach its wait before anything is sent.
        try? await Task.sleep(for: .milliseconds(50))
        sender.send([notice(1), notice(2)])
        try? await Task.sleep(for: .milliseconds(20))
        sender.send(notice(3))
        sender.finish()
        let events = await consumer.value
        XCTAssertEqual(events, [notice(1), notice(2), notice(3)])
    }

    func testCancellingTheConsumerEndsTheStreamAndTellsTheProducerOnce() async {
        let ended = Mutex(0)
        let (stream, sender) = EngineEvents.makeStream { ended.withLock { $0 += 1 } }
        let consumer = Task { await all(stream) }
        try? await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        _ = await consumer.value
        sender.send(notice(1))
        sender.finish()
        XCTAssertEqual(ended.withLock { $0 }, 1)
    }

    func testReleasingTheStreamTellsTheProducer() {
        let ended = Mutex(0)
        var stream: EngineEvents? = nil
        let sender: EngineEvents.Sender
        (stream, sender) = EngineEvents.makeStream { ended.withLock { $0 += 1 } }
        sender.send(notice(1))
        XCTAssertEqual(ended.withLock { $0 }, 0)
        XCTAssertNotNil(stream)
        stream = nil
        XCTAssertEqual(ended.withLock { $0 }, 1, "a consumer that went away ends the stream")
        sender.finish()
        XCTAssertEqual(ended.withLock { $0 }, 1)
    }

    func testReleasingTheSenderFinishesTheStream() async {
        var sender: EngineEvents.Sender?
        let stream: EngineEvents
        (stream, sender) = EngineEvents.makeStream()
        sender?.send([notice(1), notice(2)])
        sender = nil
        let events = await all(stream)
        XCTAssertEqual(events, [notice(1), notice(2)])
    }

    func testManyProducersOneConsumerLoseNothing() async {
        let (stream, sender) = EngineEvents.makeStream()
        let consumer = Task { await all(stream) }
        await withTaskGroup(of: Void.self) { group in
            for p in 0..<4 {
                group.addTask {
                    for i in 0..<500 { sender.send(notice(p * 1000 + i)) }
                }
            }
        }
        sender.finish()
        let events = await consumer.value
        XCTAssertEqual(events.count, 2000)
        // Each producer's own events keep their order.
        for p in 0..<4 {
            let mine = events.filter {
                if case .notice(_, .text(let text)) = $0 { return Int(text.dropFirst(6))! / 1000 == p }
                return false
            }
            XCTAssertEqual(mine, (0..<500).map { notice(p * 1000 + $0) })
        }
    }
}

private func notice(_ n: Int) -> EngineEvent { .notice(DownloadID(rawValue: "00000\(n)"), .text("event \(n)")) }

private func all(_ stream: EngineEvents) async -> [EngineEvent] {
    var events: [EngineEvent] = []
    for await event in stream { events.append(event) }
    return events
}
