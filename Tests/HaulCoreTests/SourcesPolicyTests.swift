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

    func testChecksumFilesInEveryFormSha256sumWrites() throws {
        let md5 = String(repeating: "1", count: 32)
        let sha512 = String(repeating: "2", count: 128)
        let list = try ChecksumList(
            parsing: """
                # made by sha256sum and friends
                \(hex256)  ubuntu.iso
                \(md5) *binary mode.bin
                \\\(hex256)  back\\\\slash\\nnewline.txt
                SHA512 (tagged (1).tar) = \(sha512)
                \(hex256)  ./images/deep.img\r

                """)
        XCTAssertEqual(list.entries.count, 5)
        XCTAssertEqual(list.checksum(for: "ubuntu.iso"), try Checksum(.sha256, hex: hex256))
        XCTAssertEqual(list.checksum(for: "binary mode.bin")?.algorithm, .md5, "told by the digest's length")
        XCTAssertEqual(list.checksum(for: "back\\slash\nnewline.txt")?.algorithm, .sha256, "escaped names")
        XCTAssertEqual(list.checksum(for: "tagged (1).tar")?.hex, sha512)
        XCTAssertEqual(list.checksum(for: "deep.img")?.algorithm, .sha256, "matched by the last part of a path")
        XCTAssertNil(list.checksum(for: "missing.iso"))
        XCTAssertThrowsError(try ChecksumList(parsing: "\(hex256)  a\nnot a line\n")) { error in
            XCTAssertEqual(
                (error as? InputError)?.message, "line 2 of the checksum file is not 'HEX  NAME' as sha256sum writes it"
            )
        }
        XCTAssertThrowsError(try ChecksumList(parsing: "# nothing\n"))
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
        let jar = CookieJar(try CookiesText.parse(cookiesText))
        XCTAssertEqual(jar.all.count, 5)
        let now = Date(timeIntervalSince1970: 2000)
        XCTAssertEqual(jar.header(for: "http://example.org/a.iso", at: now), "site=1")
        XCTAssertEqual(jar.header(for: "https://example.org/a.iso", at: now), "site=1; secret=3", "secure: https only")
        XCTAssertEqual(jar.header(for: "http://example.org/private/x", at: now), "deep=2; site=1", "longest path first")
        XCTAssertEqual(jar.header(for: "http://example.org/privately", at: now), "site=1", "a path ends at a '/'")
        XCTAssertEqual(jar.header(for: "http://cdn.example.org/a", at: now), "site=1", "only the dotted one")
        XCTAssertNil(jar.header(for: "http://badexample.org/a", at: now))
        XCTAssertEqual(jar.header(for: "http://other.net/", at: now), "other=4")
        XCTAssertEqual(
            jar.header(for: "http://example.org/", at: Date(timeIntervalSince1970: 500)), "site=1; old=5",
            "an expiry in Unix seconds")
        XCTAssertThrowsError(try CookiesText.parse("just some text\nnot cookies\n"))
        XCTAssertEqual(try CookiesText.parse("# only comments\n\n"), [])
    }

    func testCookiesSetByResponsesAreKeptForLaterRequestsOfTheDownload() {
        let jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_000_000)
        jar.store(
            [
                "session=abc; Path=/; HttpOnly", "scoped=1; Domain=.example.org; Path=/",
                "elsewhere=1; Domain=other.net",
                "dir=1", "gone=1; Max-Age=0",
            ], from: "https://login.example.org/auth/step", at: now)
        XCTAssertEqual(
            jar.header(for: "https://login.example.org/auth/next", at: now), "dir=1; session=abc; scoped=1",
            "a cookie without Path gets the request's folder, and longer paths go first")
        XCTAssertEqual(
            jar.header(for: "https://cdn.example.org/file", at: now), "scoped=1", "Domain= reaches subdomains")
        XCTAssertNil(jar.header(for: "https://other.net/", at: now), "a response cannot set cookies for another site")
        jar.store(["session=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: "https://login.example.org/", at: now)
        XCTAssertEqual(jar.header(for: "https://login.example.org/x", at: now), "scoped=1", "an expired one removes it")
    }

    // MARK: New links

    func head(_ status: Int, _ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(status: status, headers: fields)
    }

    func testANewLinkServesTheSameFileByETagOrSizeAndDateOrSizeAlone() {
        let ranged = [("Content-Range", "bytes 0-0/1000"), ("Content-Length", "1")]
        // The same strong ETag.
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged + [("ETag", "\"v1\"")]), etag: "\"v1\"", lastModified: nil, size: 1000),
            .sameFile)
        // A weak ETag proves nothing; the date and size do.
        XCTAssertEqual(
            LinkCheck.compare(
                head(206, ranged + [("ETag", "W/\"v1\"")]), etag: "W/\"v1\"", lastModified: nil, size: 1000),
            .otherFile(size: 1000, was: 1000))
        let date = "Sun, 06 Nov 2044 08:49:37 GMT"
        XCTAssertEqual(
            LinkCheck.compare(
                head(206, ranged + [("ETag", "\"node-b\""), ("Last-Modified", date)]), etag: "\"node-a\"",
                lastModified: date, size: 1000), .sameFile, "another CDN node's ETag, the same size and date")
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged + [("Last-Modified", date)]), etag: nil, lastModified: date, size: 999),
            .otherFile(size: 1000, was: 999))
        // No validators before: the size decides, from Content-Length when the server sends it all.
        XCTAssertEqual(
            LinkCheck.compare(head(200, [("Content-Length", "1000")]), etag: nil, lastModified: nil, size: 1000),
            .sameFile)
        XCTAssertEqual(
            LinkCheck.compare(head(200, [("Content-Length", "20")]), etag: nil, lastModified: nil, size: 24),
            .otherFile(size: 20, was: 24))
        // Validators before and none now: another file.
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged), etag: "\"v1\"", lastModified: nil, size: 1000),
            .otherFile(size: 1000, was: 1000))
    }

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
        XCTAssertEqual(paused.state, .paused, "a paused download stays paused")

        var done = Download(id: DownloadID(rawValue: "c3"), url: "http://h/a", directory: "/tmp", queueOrder: 3)
        done.state = .finished
        XCTAssertFalse(done.changeLink(to: "http://h/b"))
    }

    func testTheNoticeOfAnotherFileSaysTheSizes() throws {
        let notice = Notice.otherFileAtNewLink(size: 20 << 20, was: 24 << 20)
        XCTAssertEqual(
            ReasonText.notice(notice), "the new link serves a different file: 20.0 MiB, was 24.0 MiB; started over")
        XCTAssertEqual(
            ReasonText.notice(.otherFileAtNewLink(size: 5, was: 5)),
            "the new link serves a different file (its date or ETag differs); started over")
        let data = try JSONEncoder().encode(notice)
        XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: data), notice)
    }
}
