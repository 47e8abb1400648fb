import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Events are held and then delivered together, in order, to the subscribers there were when
/// they were published; deliveries are paced.
final class EventHubTests: XCTestCase {
    private func notice(_ n: Int) -> EngineEvent { .notice(DownloadID(rawValue: "00000\(n)"), .text("event \(n)")) }

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
        let hub = EventHub(clock: SystemClock(), pace: .zero)
        let stream = hub.subscribe { _ in }
        XCTAssertEqual(hub.hold(notice(1)), .zero, "the first held event asks for a delivery, now")
        XCTAssertNil(hub.hold(notice(2)))
        XCTAssertNil(hub.hold(notice(3)))
        hub.deliverHeld()
        XCTAssertEqual(hub.hold(notice(4)), .zero, "after a delivery the next event asks again")
        hub.finishAll()

        let events = await take(5, from: stream)
        XCTAssertEqual(events, [notice(1), notice(2), notice(3), notice(4)], "finishAll delivers what is held first")
    }

    func testADeliveryRightAfterAnotherWaitsForThePace() async throws {
        let clock = TestClock()
        let hub = EventHub(clock: clock, pace: .milliseconds(200))
        _ = hub.subscribe { _ in }
        XCTAssertEqual(hub.hold(notice(1)), .zero, "the first event after a quiet spell goes out at once")
        hub.deliverHeld()
        let delay = try XCTUnwrap(hub.hold(notice(2)))
        XCTAssertGreaterThan(delay, .milliseconds(100), "one right after a delivery waits for the rest of the pace")
        XCTAssertLessThanOrEqual(delay, .milliseconds(200))
        XCTAssertNil(hub.hold(notice(3)), "and takes the events after it along")
        hub.deliverHeld()
        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(hub.hold(notice(4)), .zero, "once the pace has passed, at once again")
    }

    func testNothingIsHeldWithoutSubscribers() {
        let hub = EventHub(clock: SystemClock())
        XCTAssertNil(hub.hold(notice(1)))
        XCTAssertNil(hub.hold(notice(2)))
    }

    func testALaterSubscriberDoesNotGetEventsPublishedBeforeIt() async {
        let hub = EventHub(clock: SystemClock())
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
