import HaulRPC
import XCTest

/// aria2's paging of `tellWaiting` and `tellStopped`, negative offsets included.
final class QueuePageTests: XCTestCase {
    func testForwardPages() {
        XCTAssertEqual(QueuePage.indices(count: 5, offset: 0, num: 2), [0, 1])
        XCTAssertEqual(QueuePage.indices(count: 5, offset: 3, num: 10), [3, 4])
        XCTAssertEqual(QueuePage.indices(count: 5, offset: 5, num: 1), [])
        XCTAssertEqual(QueuePage.indices(count: 5, offset: 0, num: 0), [])
    }

    func testNegativeOffsetsCountFromTheEndAndRunBackwards() {
        XCTAssertEqual(QueuePage.indices(count: 5, offset: -1, num: 2), [4, 3])
        XCTAssertEqual(QueuePage.indices(count: 5, offset: -2, num: 10), [3, 2, 1, 0])
        XCTAssertEqual(QueuePage.indices(count: 5, offset: -6, num: 1), [])
    }
}
