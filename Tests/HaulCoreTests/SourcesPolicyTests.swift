import Foundation
import XCTest

@testable import HaulCore

/// Where a download's bytes come from and how they are checked, without sockets: checksum names
/// and files, cookies.txt and Set-Cookie, whether a new link serves the same file, and the
/// transition a new link makes.
final class SourcesPolicyTests: XCTestCase {
    let hex256 = String(repeating: "ab", count: 32)

    func testChecksumTypesAreAria2sNamesWithOrWithoutTheDash() throws {
        for (name, algorithm) in [
            ("md5", ChecksumAlgorithm.md5), ("sha-1", .sha1), ("sha1", .sha1), ("SHA-224", .sha224),
            ("sha224", .sha224), ("sha-256", .sha256), ("sha256", .sha256), ("sha-384", .sha384),
            ("sha384", .sha384), ("sha-512", .sha512), ("Sha512", .sha512),
        ] {
            let hex = String(repeating: "F", count: algorithm.hexDigits)
            let checksum = try Checksum(parsing: "\(name)=\(hex)")
            XCTAssertEqual(checksum.algorithm, algorithm, name)
            XCTAssertEqual(checksum.hex, hex.lowercased(), "stored in lowercase")
            XCTAssertEqual(checksum.text, "\(algorithm.rawValue)=\(hex.lowercased())")
        }
        XCTAssertEqual(ChecksumAlgorithm(hexDigits: 56), .sha224)
        XCTAssertNil(ChecksumAlgorithm(name: "sha-3"))
    }

    func testBadChecksumsSayWhatIsWrongInOneSentence() {
        func message(_ text: String) -> String? {
            do {
                _ = try Checksum(parsing: text)
                return nil
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(message("sha-256=abc"), "a SHA-256 checksum is 64 hexadecimal digits")
        XCTAssertEqual(message("md5=" + String(repeating: "g", count: 32)), "a MD5 checksum is 32 hexadecimal digits")
        XCTAssertEqual(message(hex256), "a checksum is written TYPE=HEX, e.g. sha-256=9f86d0…")
        XCTAssertEqual(
            message("crc32=abcd"),
            "'crc32' is not a checksum type haul knows (md5, sha-1, sha-224, sha-256, sha-384, sha-512)")
    }

    func testAChecksumIsStoredAsAria2WritesIt() throws {
        let checksum = try Checksum(parsing: "SHA256=" + hex256.uppercased())
        let data = try JSONEncoder().encode([checksum])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[\"sha-256=\(hex256)\"]")
        XCTAssertEqual(try JSONDecoder().decode([Checksum].self, from: data), [checksum])
    }

    // MARK: Cookies

    let cookiesText = """
        # Netscape HTTP Cookie File
        .example.org\tTRUE\t/\tFALSE\t0\tsite\t1
        example.org\tFALSE\t/private\tFALSE\t0\tdeep\t2
        #HttpOnly_example.org\tFALSE\t/\tTRUE\t0\tsecret\t3
        other.net\tFALSE\t/\tFALSE\t0\tother\t4
        example.org\tFALSE\t/\tFALSE\t1000\told\t5
        """

    func testCookiesTxtCookiesGoByDomainPathAndTheSecureFlag() throws {
        let cookies = try CookiesText.parse(cookiesText)
        let jar = CookieJar(cookies, clock: Self.clock(at: 2000))
        XCTAssertEqual(jar.all.count, 5)
        XCTAssertEqual(jar.header(for: "http://example.org/a.iso"), "site=1")
        XCTAssertEqual(jar.header(for: "https://example.org/a.iso"), "site=1; secret=3", "secure: https only")
        XCTAssertEqual(jar.header(for: "http://example.org/private/x"), "deep=2; site=1", "longest path first")
        XCTAssertEqual(jar.header(for: "http://example.org/privately"), "site=1", "a path ends at a '/'")
        XCTAssertEqual(jar.header(for: "http://cdn.example.org/a"), "site=1", "only the dotted one")
        XCTAssertNil(jar.header(for: "http://badexample.org/a"))
        XCTAssertEqual(jar.header(for: "http://other.net/"), "other=4")
        XCTAssertEqual(
            CookieJar(cookies, clock: Self.clock(at: 500)).header(for: "http://example.org/"), "site=1; old=5",
            "an expiry in Unix seconds")
        XCTAssertThrowsError(try CookiesText.parse("just some text\nnot cookies\n"))
        XCTAssertEqual(try CookiesText.parse("# only comments\n\n"), [])
    }

    func testCookiesSetByResponsesAreKeptForLaterRequestsOfTheDownload() {
        let jar = CookieJar(clock: Self.clock(at: 1_000_000))
        jar.store(
            [
                "session=abc; Path=/; HttpOnly", "scoped=1; Domain=.example.org; Path=/",
                "elsewhere=1; Domain=other.net",
                "dir=1", "gone=1; Max-Age=0",
            ], from: "https://login.example.org/auth/step")
        XCTAssertEqual(
            jar.header(for: "https://login.example.org/auth/next"), "dir=1; session=abc; scoped=1",
            "a cookie without Path gets the request's folder, and longer paths go first")
        XCTAssertEqual(
            jar.header(for: "https://cdn.example.org/file"), "scoped=1", "Domain= reaches subdomains")
        XCTAssertNil(jar.header(for: "https://other.net/"), "a response cannot set cookies for another site")
        jar.store(["session=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: "https://login.example.org/")
        XCTAssertEqual(jar.header(for: "https://login.example.org/x"), "scoped=1", "an expired one removes it")
    }

    /// A wall clock standing at `seconds` after 1970.
    static func clock(at seconds: Double) -> WallClock {
        WallClock(startingAt: Date(timeIntervalSince1970: seconds), clock: StandingClock())
    }

    /// A monotonic clock that never moves: what a pure test of time arithmetic stands on.
    struct StandingClock: MonotonicClock {
        var now: Duration { .zero }
        func sleep(until deadline: Duration) async throws { throw CancellationError() }
    }

    // MARK: New links

    func testANewLinkKeepsTheBytesAndRemembersWhereTheDownloadCameFrom() {
        var d = Download(id: DownloadID(rawValue: "a1"), url: "http://h/old?sig=1", directory: "/tmp", queueOrder: 1)
        d.fail(.status(403))
        d.receivedBytes = 500
        d.finalURL = "http://cdn/old"
        d.retries = 3
        XCTAssertTrue(d.mayNeedNewLink)
        XCTAssertTrue(d.changeLink(to: "http://h/new?sig=2"))
        XCTAssertEqual(d.state, .waiting)
        XCTAssertEqual(d.url, "http://h/new?sig=2")
        XCTAssertEqual(d.previousURLs, ["http://h/old?sig=1"])
        XCTAssertTrue(d.linkUnchecked)
        XCTAssertEqual(d.receivedBytes, 500, "the bytes stay until the new link's answer says otherwise")
        XCTAssertNil(d.finalURL)
        XCTAssertEqual(d.retries, 0)
        XCTAssertFalse(d.changeLink(to: "http://h/new?sig=2"), "the same address changes nothing")

        var paused = Download(id: DownloadID(rawValue: "b2"), url: "http://h/a", directory: "/tmp", queueOrder: 2)
        paused.pause(.user)
        XCTAssertTrue(paused.changeLink(to: "http://h/b"))
        XCTAssertEqual(paused.state.kind, .paused, "a paused download stays paused")

        var done = Download(id: DownloadID(rawValue: "c3"), url: "http://h/a", directory: "/tmp", queueOrder: 3)
        done.state = .finished
        XCTAssertFalse(done.changeLink(to: "http://h/b"))

        // A torrent is named by its info hash: it has no link to renew, nor becomes one.
        let magnet = "magnet:?xt=urn:btih:" + String(repeating: "ab", count: 20)
        var torrent = Download(id: DownloadID(rawValue: "d4"), url: magnet, directory: "/tmp", queueOrder: 4)
        torrent.fail(.cancelled)
        XCTAssertFalse(torrent.changeLink(to: "http://h/b"))
        XCTAssertEqual(torrent.url, magnet)
        var plain = Download(id: DownloadID(rawValue: "e5"), url: "http://h/a", directory: "/tmp", queueOrder: 5)
        plain.fail(.status(403))
        XCTAssertFalse(plain.changeLink(to: magnet))
        XCTAssertEqual(plain.url, "http://h/a")
    }

    func testTheNoticeOfAnotherFileSaysTheSizes() throws {
        let notice = Notice.otherFileAtNewLink(size: 20 << 20, was: 24 << 20)
        XCTAssertEqual(
            ReasonText.notice(notice, now: nil),
            "the new link serves a different file: 20.0 MiB, was 24.0 MiB; started over")
        XCTAssertEqual(
            ReasonText.notice(.otherFileAtNewLink(size: 5, was: 5), now: nil),
            "the new link serves a different file (its date or ETag differs); started over")
        let data = try JSONEncoder().encode(notice)
        XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: data), notice)
    }

    /// A run's first request goes to each usable source in priority order while those before it
    /// fail; after the last, the round ends with the sources as before it and the download's
    /// own URL current again.
    func testAFirstRequestThatFailsGoesToEachUsableSourceInTurnThenTheRoundEnds() {
        let primary = "http://a/f"
        var sources = [
            DownloadSource(url: "http://b/f", origin: .user),
            DownloadSource(url: "http://c/f", origin: .metalink, priority: 1),
            DownloadSource(url: "http://d/f", origin: .user),
            DownloadSource(url: primary, origin: .user),
        ]
        sources[2].problem = .dateDiffers
        var fallback = SourceFallback()
        XCTAssertNil(fallback.current)
        let refused = SourceProblem.failed(.cannotConnect(host: "a", port: 80, why: "connection refused"))
        XCTAssertEqual(fallback.next(after: refused, primary: primary, sources: &sources)?.url, "http://c/f")
        XCTAssertEqual(
            fallback.next(after: .failed(.status(404)), primary: primary, sources: &sources)?.url, "http://b/f")
        XCTAssertEqual(sources[1].problem, .failed(.status(404)))
        XCTAssertNil(fallback.next(after: .otherContent, primary: primary, sources: &sources), "d was out before")
        XCTAssertNil(fallback.current)
        XCTAssertEqual(
            sources.map(\.problem), [.otherContent, nil, .dateDiffers, nil],
            "as before the round, but the source found to serve another file")
        XCTAssertEqual(fallback.next(after: refused, primary: primary, sources: &sources)?.url, "http://c/f")
        XCTAssertNil(fallback.next(after: .failed(.status(503)), primary: primary, sources: &sources))
        XCTAssertEqual(sources.map(\.problem), [.otherContent, nil, .dateDiffers, nil])

        var none: [DownloadSource] = []
        var alone = SourceFallback()
        XCTAssertNil(alone.next(after: refused, primary: primary, sources: &none))
    }

    /// A round every source failed ends with the last failure worth another attempt, else with
    /// the download's own URL's: an expired link's 404 stays that link's.
    func testARoundThatEveryFailedEndsWithTheLastTransientFailureElseTheOwnURLs() {
        var sources = [
            DownloadSource(url: "http://b/f", origin: .user), DownloadSource(url: "http://c/f", origin: .user),
        ]
        var fallback = SourceFallback()
        func fail(_ failure: TransferFailure) -> DownloadSource? {
            fallback.failed(failure)
            return fallback.next(after: .failed(failure.reason), primary: "http://a/f", sources: &sources)
        }
        let expired = TransferFailure(.status(404))
        let refused = TransferFailure(.cannotConnect(host: "b", port: 80, why: "connection refused"))
        XCTAssertFalse(expired.isTransient)
        XCTAssertNotNil(fail(expired))
        XCTAssertNotNil(fail(refused))
        XCTAssertNil(fail(TransferFailure(.status(410))))
        XCTAssertEqual(fallback.roundFailure, refused, "a mirror that may come back: the download is tried again")

        XCTAssertNotNil(fail(expired))
        XCTAssertNotNil(fail(TransferFailure(.status(403))))
        XCTAssertNil(fail(TransferFailure(.status(410))))
        XCTAssertEqual(fallback.roundFailure, expired, "every one failed for good: the download's own link's")
    }

    func testOnlyTheServersFailuresAreWorthAnotherSource() {
        XCTAssertTrue(FailureReason.status(404).mayServeElsewhere)
        XCTAssertTrue(FailureReason.cannotConnect(host: "a", port: 80, why: "no such host").mayServeElsewhere)
        XCTAssertTrue(FailureReason.tls("bad certificate").mayServeElsewhere)
        XCTAssertFalse(FailureReason.diskFull(shortfall: nil).mayServeElsewhere)
        XCTAssertFalse(FailureReason.file("permission denied").mayServeElsewhere)
        XCTAssertFalse(FailureReason.requestHeaderRefused.mayServeElsewhere)
        XCTAssertFalse(FailureReason.cancelled.mayServeElsewhere)
    }
}
