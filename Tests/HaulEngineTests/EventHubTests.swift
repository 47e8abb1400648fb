import HaulCore
import XCTest
@testable import HaulEngine

/// Events are held and then delivered together, in order, to the subscribers there were when
/// they were published.
final class EventHubTests: XCTestCase {
    private func notice(_ n: Int) -> EngineEvent { .notice(DownloadID(rawValue: "00000\(n)"), "event \(n)") }

    /// Takes `count` events from `stream`, failing the test if fewer arrive.
    private func take(_ count: Int, from stream: EngineEvents) async -> [EngineEvent] {
        var events: [EngineEvent] = []
        for await event in stream {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    func testHeldEventsArriveTogetherInOrderOnlyWhenDelivered() async {
        let hub = EventHub()
        let stream = hub.subscribe { _ in }
        XCTAssertTrue(hub.hold(notice(1)), "the first held event asks for a delivery")
        XCTAssertFalse(hub.hold(notice(2)))
        XCTAssertFalse(hub.hold(notice(3)))
        hub.deliverHeld()
        XCTAssertTrue(hub.hold(notice(4)), "after a delivery the next event asks again")
        hub.finishAll()

        let events = await take(5, from: stream)
        XCTAssertEqual(events, [notice(1), notice(2), notice(3), notice(4)], "finishAll delivers what is held first")
    }

    func testNothingIsHeldWithoutSubscribers() {
        let hub = EventHub()
        XCTAssertFalse(hub.hold(notice(1)))
        XCTAssertFalse(hub.hold(notice(2)))
    }

    func testALaterSubscriberDoesNotGetEventsPublishedBeforeIt() async {
        let hub = EventHub()
        let first = hub.subscribe { _ in }
        _ = hub.hold(notice(1))
        let second = hub.subscribe { _ in }
        _ = hub.hold(notice(2))
        hub.finishAll()

        let toFirst = await take(3, from: first)
        let toSecond = await take(3, from: second)
        XCTAssertEqual(toFirst, [notice(1), notice(2)])
        XCTAssertEqual(toSecond, [notice(2)])
    }
}
