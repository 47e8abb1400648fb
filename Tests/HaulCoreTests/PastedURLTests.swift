import XCTest

@testable import HaulCore

/// URLs as people paste them become the URIs servers expect, as browsers and wget make them.
final class PastedURLTests: XCTestCase {
    func uri(_ text: String) -> String? { PastedURL.uri(from: text) }

    func testWhatAURLMayNotHoldIsEncodedAndValidEscapesAreKept() {
        // The measured case: raw non-ASCII beside a valid escape; the escape is not encoded again.
        XCTAssertEqual(uri("http://host/naïve%20file.bin"), "http://host/na%C3%AFve%20file.bin")
        XCTAssertEqual(uri("http://host/a b/c d.iso?x=1 2&y=ü"), "http://host/a%20b/c%20d.iso?x=1%202&y=%C3%BC")
        XCTAssertEqual(uri("http://host/文件.zip"), "http://host/%E6%96%87%E4%BB%B6.zip")
        XCTAssertEqual(uri(#"http://host/a|b{c}^`"<>\.bin"#), "http://host/a%7Cb%7Bc%7D%5E%60%22%3C%3E%5C.bin")
        // A `%` that starts no escape is itself encoded; reserved characters keep their meaning.
        XCTAssertEqual(uri("http://host/100%zz.bin"), "http://host/100%25zz.bin")
        XCTAssertEqual(uri("http://host/a%2Fb?q=a+b&r=%26"), "http://host/a%2Fb?q=a+b&r=%26")
        // A URL that is already a URI is unchanged, apart from a lower-case scheme and no fragment.
        XCTAssertEqual(uri("HTTPS://Host:8443/x/y.bin?a=1#part"), "https://Host:8443/x/y.bin?a=1")
        XCTAssertEqual(uri("  http://host/x.bin\n"), "http://host/x.bin")
    }

    func testHostsBecomePunycodeAndCredentialsAndIPv6AreKept() {
        XCTAssertEqual(uri("http://bücher.example/x"), "http://xn--bcher-kva.example/x")
        XCTAssertEqual(
            uri("https://用户:密码 1@例子.测试:8443/路径"),
            "https://%E7%94%A8%E6%88%B7:%E5%AF%86%E7%A0%81%201@xn--fsqu00a.xn--0zwm56d:8443/%E8%B7%AF%E5%BE%84")
        XCTAssertEqual(uri("http://[::1]:8080/a b"), "http://[::1]:8080/a%20b")
        XCTAssertEqual(uri("http://host:/x"), "http://host:/x")
    }

    func testOnlyWhatCannotBeAURLIsRefused() {
        XCTAssertNil(uri("http:// host/x"))
        XCTAssertNil(uri("http://exa mple.com/"))
        XCTAssertNil(uri("http:///path"))
        XCTAssertNil(uri("http://host:80x/"))
        XCTAssertNil(uri("host/no-scheme.bin"))
        XCTAssertNil(uri("1http://host/"))
        XCTAssertThrowsError(try DownloadURL.validate("http://exa mple.com/x")) { error in
            XCTAssertEqual(
                (error as? InputError)?.message,
                "'http://exa mple.com/x' is not a valid URL (its host name is empty or holds spaces or symbols)")
        }
        XCTAssertEqual(try DownloadURL.validate("http://host/my file.iso"), "http://host/my%20file.iso")
        XCTAssertEqual(FileNaming.nameFromURL(try DownloadURL.validate("http://h/naïve%20file.bin")), "naïve file.bin")
    }
}

/// netrc files as curl and wget read them.
final class NetrcTests: XCTestCase {
    func testEntriesDefaultsQuotesAndMacrosAreRead() {
        let netrc = Netrc(
            """
            machine Example.org login ann password "two words \\" q"
            macdef init
            cd /pub
            login notthis password notthis

            machine other.net
              login bob
              password b%40b
            default login anonymous password me@home
            """)
        XCTAssertEqual(netrc.credentials(for: "example.ORG")?.login, "ann")
        XCTAssertEqual(netrc.credentials(for: "example.org")?.password, "two words \" q")
        XCTAssertEqual(netrc.credentials(for: "other.net")?.password, "b%40b")
        XCTAssertEqual(netrc.credentials(for: "third.io")?.login, "anonymous")
        XCTAssertNil(Netrc("machine a.b password x").credentials(for: "a.b"), "no login, nothing to send")
    }

    func testTheLoginGoesIntoTheURLOnlyWhenItCarriesNone() {
        let netrc = Netrc("machine h login u@x password p%w:d")
        XCTAssertEqual(NetrcFile.url("http://h/f", headers: [], netrc: netrc), "http://u%40x:p%25w%3Ad@h/f")
        XCTAssertEqual(NetrcFile.url("http://me:pw@h/f", headers: [], netrc: netrc), "http://me:pw@h/f")
        XCTAssertEqual(
            NetrcFile.url(
                "http://h/f", headers: [RequestHeader(name: "Authorization", value: "Bearer t")], netrc: netrc),
            "http://h/f")
        XCTAssertEqual(NetrcFile.url("http://other/f", headers: [], netrc: netrc), "http://other/f")
        let parts = URLParts(NetrcFile.url("http://h/f", headers: [], netrc: netrc))
        XCTAssertEqual(parts?.credentials, URLParts.Credentials(user: "u@x", password: "p%w:d"))
    }
}
