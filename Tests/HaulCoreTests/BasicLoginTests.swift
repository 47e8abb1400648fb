import HaulCore
import XCTest

/// A login given with a download: HTTP Basic as RFC 7617 writes it, from aria2's options too.
final class BasicLoginTests: XCTestCase {
    func testTheHeaderIsBasicAndTheBase64OfUserColonPassword() {
        // RFC 7617's own example.
        XCTAssertEqual(
            BasicLogin(user: "Aladdin", password: "open sesame").basicAuthorization,
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        XCTAssertEqual(BasicLogin(user: "u", password: "").basicAuthorization, "Basic dTo=")
    }

    func testAria2sHttpUserAndPasswdAreOneLoginForTheURLsHost() throws {
        var request = DownloadRequest(url: "http://h/f", directory: "/d")
        try Aria2Options.apply([("http-passwd", "open sesame"), ("http-user", "Aladdin")], to: &request) { $0 }
        XCTAssertEqual(
            request.headers, [RequestHeader(name: "Authorization", value: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")])
        // A header the caller gave wins, as a download's own headers do.
        var own = DownloadRequest(url: "http://h/f", directory: "/d")
        try Aria2Options.apply([("header", "Authorization: Bearer t"), ("http-user", "u")], to: &own) { $0 }
        XCTAssertEqual(own.headers.map(\.value), ["Bearer t"])
        var passwordAlone = DownloadRequest(url: "http://h/f", directory: "/d")
        try Aria2Options.apply([("http-passwd", "p")], to: &passwordAlone) { $0 }
        XCTAssertEqual(passwordAlone.headers, [])
        XCTAssertTrue(Aria2Options.honoured.isSuperset(of: ["http-user", "http-passwd"]))
    }
}
