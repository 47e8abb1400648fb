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
        let stream = hub.subscribe()
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
        let stream = hub.subscribe()
        XCTAssertEqual(hub.hold(notice(1)), .zero, "the first event after a quiet spell goes out at once")
        hub.deliverHeld()
        let delay = try XCTUnwrap(hub.hold(notice(2)))
        XCTAssertGreaterThan(delay, .milliseconds(100), "one right after a delivery waits for the rest of the pace")
        XCTAssertLessThanOrEqual(delay, .milliseconds(200))
        XCTAssertNil(hub.hold(notice(3)), "and takes the events after it along")
        hub.deliverHeld()
        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(hub.hold(notice(4)), .zero, "once the pace has passed, at once again")
        withExtendedLifetime(stream) {}
    }

    func testNothingIsHeldWithoutSubscribers() {
        let hub = EventHub(clock: SystemClock())
        XCTAssertNil(hub.hold(notice(1)))
        XCTAssertNil(hub.hold(notice(2)))
        _ = hub.subscribe()
        XCTAssertNil(hub.hold(notice(3)), "a subscriber whose stream was let go is gone")
    }

    func testALaterSubscriberDoesNotGetEventsPublishedBeforeIt() async {
        let hub = EventHub(clock: SystemClock())
        let first = hub.subscribe()
        _ = hub.hold(notice(1))
        let second = hub.subscribe()
        _ = hub.hold(notice(2))
        hub.finishAll()

        let toFirst = await take(3, from: first)
        let toSecond = await take(3, from: second)
        XCTAssertEqual(toFirst, [notice(1), notice(2)])
        XCTAssertEqual(toSecond, [notice(2)])
    }
}

extension EventHubTests {
    /// A listener cancelled while a delivery is under way ends, and so does the delivery: the
    /// cancellation runs the stream's end with the task's own lock held, while a delivery yields
    /// to that task with the hub's lock held, so the end must not wait for the hub's lock.
    func testCancellingAListenerWhileEventsAreDeliveredHangsNeither() {
        let hub = EventHub(clock: SystemClock(), pace: .zero)
        // A listener cancelled before it began to listen ends only once it begins.
        let listeners = DispatchGroup()
        for round in 0..<2_000 {
            let stream = hub.subscribe()
            listeners.enter()
            let listening = Task.detached {
                for await _ in stream {}
                listeners.leave()
            }
            let both = DispatchGroup()
            let events = (0..<20).map(notice)
            DispatchQueue.global().async(group: both) {
                for event in events {
                    _ = hub.hold(event)
                    hub.deliverHeld()
                }
            }
            DispatchQueue.global().async(group: both) { listening.cancel() }
            guard both.wait(timeout: .now() + 10) == .success else {
                return XCTFail("round \(round): a delivery and a cancellation waited on each other")
            }
        }
        XCTAssertEqual(listeners.wait(timeout: .now() + 10), .success, "every cancelled listener ended")
        XCTAssertNil(hub.hold(notice(0)), "the cancelled listeners are gone from the hub")
    }
}
