import HaulCore
import HaulHTTP
import NIOHTTP2
import XCTest

/// A stream the server never processed may be sent again without counting as an attempt (RFC
/// 9113 §8.7); any other end of a stream is an ordinary failure.
final class TurnedAwayStreamTests: XCTestCase {
    func classify(_ code: HTTP2ErrorCode) -> TransferFailure {
        TransferFailure.classify(
            NIOHTTP2Errors.streamClosed(streamID: HTTP2StreamID(7), errorCode: code), stallTimeout: .seconds(30))
    }

    func testStreamsPastAGoawayOrRefusedAreUnprocessed() {
        // NIO closes the streams past a GOAWAY's last stream with CANCEL.
        for code in [HTTP2ErrorCode.cancel, .refusedStream] {
            let failure = classify(code)
            XCTAssertTrue(failure.unprocessed, "\(code)")
            XCTAssertTrue(failure.isTransient)
            XCTAssertEqual(failure.reason, .serverClosedConnection)
        }
    }

    func testOtherStreamErrorsAreAttempts() {
        for code in [HTTP2ErrorCode.protocolError, .internalError, .flowControlError, .enhanceYourCalm] {
            XCTAssertFalse(classify(code).unprocessed, "\(code)")
        }
    }
}
