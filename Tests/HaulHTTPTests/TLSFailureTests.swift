import XCTest

@testable import HaulHTTP

/// What a TLS failure is called, from the library's own words.
final class TLSFailureTests: XCTestCase {
    func testBoringSSLReasonNamesAreReadFromTheirDescriptions() {
        let described =
            "Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at "
            + "/src/ssl/handshake.cc:320"
        XCTAssertEqual(TLSFailure.reason(in: described), "CERTIFICATE_VERIFY_FAILED")
        XCTAssertEqual(
            TLSFailure.reason(in: "Error: 1 error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER"),
            "WRONG_VERSION_NUMBER")
        XCTAssertNil(TLSFailure.reason(in: "Error:  EOF during handshake"))
        XCTAssertNil(TLSFailure.reason(in: "error:1:SSL routines:x:\u{1B}[31m at /p"))
    }
}
