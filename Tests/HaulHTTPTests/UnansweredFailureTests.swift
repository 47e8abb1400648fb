import HaulCore
import NIOCore
import XCTest

@testable import HaulHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Which failures the machine's network going away explains: nothing answered (no route, a
/// connect that timed out) or the data stopped. An answer (a refusal, a reset, a status) is the
/// server's. (A name server that did not answer is the same case: NIO's lookup errors cannot be
/// made outside NIO, so `OfflineTests` meets it for real.)
final class UnansweredFailureTests: XCTestCase {
    func classify(_ error: Error) -> TransferFailure { TransferFailure.classify(error, stallTimeout: .seconds(30)) }

    func testNoRouteATimeoutAndAStallMayBeTheNetwork() {
        for code in [ENETUNREACH, EHOSTUNREACH, ETIMEDOUT] {
            XCTAssertTrue(classify(IOError(errnoCode: code, reason: "connect")).mayBeTheNetwork, "errno \(code)")
        }
        XCTAssertTrue(classify(ChannelError.connectTimeout(.seconds(15))).mayBeTheNetwork)
        XCTAssertTrue(TransferFailure(.stalled(seconds: 30)).mayBeTheNetwork)
    }

    func testAnAnswerIsTheServers() {
        for code in [ECONNREFUSED, ECONNRESET, EPIPE] {
            XCTAssertFalse(classify(IOError(errnoCode: code, reason: "connect")).mayBeTheNetwork, "errno \(code)")
        }
        XCTAssertFalse(TransferFailure(.status(503)).mayBeTheNetwork)
        XCTAssertFalse(TransferFailure(.serverClosedConnection).mayBeTheNetwork)
    }
}
