import Foundation
import XCTest

@testable import HaulCore

/// The pure parts of several sources per file: `Link` and `Digest` headers, Metalink documents,
/// and which source a new connection goes to.
final class MirrorSourcesTests: XCTestCase {
    // MARK: Link (RFC 8288, RFC 6249)

    func testLinkHeadersAsMirrorbitsSendsThem() {
        let links = LinkHeader.parse([
            "<http://a.example/f.iso>; rel=duplicate; pri=1; geo=de, <https://b.example/f.iso>; rel=\"duplicate\"; pri=2",
            "<http://r.example/f.iso.meta4>; rel=describedby; type=\"application/metalink4+xml\"",
        ])
        XCTAssertEqual(
            links.map(\.target), ["http://a.example/f.iso", "https://b.example/f.iso", "http://r.example/f.iso.meta4"])
        XCTAssertEqual(links.map { $0.isRelation("duplicate") }, [true, true, false])
        XCTAssertEqual(links.map(\.priority), [1, 2, nil])
        XCTAssertEqual(links[0].parameters["geo"], "de")
        XCTAssertTrue(links[2].isRelation("describedby"))
        XCTAssertEqual(links[2].parameters["type"], Metalink.mediaType)
    }

    func testLinkValuesWithCommasInQuotesAndSeveralRelations() {
        let links = LinkHeader.parse([
            "<http://a/x>; title=\"one, two\"; rel=\"duplicate alternate\", <http://b/y>;rel=duplicate"
        ])
        XCTAssertEqual(links.count, 2)
        XCTAssertEqual(links[0].parameters["title"], "one, two")
        XCTAssertTrue(links[0].isRelation("duplicate"))
        XCTAssertTrue(links[1].isRelation("duplicate"))
    }

    func testBrokenLinkValuesGiveWhatCanBeRead() {
        XCTAssertEqual(LinkHeader.parse(["garbage", "<unclosed; rel=duplicate", ""]), [])
        XCTAssertEqual(
            LinkHeader.parse(["<>; rel=duplicate, <http://ok/>; rel=duplicate"]).map(\.target), ["http://ok/"])
    }

    // MARK: Digest (RFC 3230)

    func testDigestHeaderGivesTheStrongestChecksum() throws {
        let sha256 = Data(repeating: 0xAB, count: 32).base64EncodedString()
        let sha512 = Data(repeating: 0xCD, count: 64).base64EncodedString()
        let md5 = Data(repeating: 0x01, count: 16).base64EncodedString()
        XCTAssertEqual(DigestHeader.checksum(["MD5=\(md5), SHA-256=\(sha256)"])?.algorithm, .sha256)
        XCTAssertEqual(DigestHeader.checksum(["SHA-256=\(sha256)", "sha-512=\(sha512)"])?.algorithm, .sha512)
        XCTAssertEqual(
            DigestHeader.checksum(["SHA-256=\(sha256)"]), try Checksum(.sha256, hex: String(repeating: "ab", count: 32))
        )
        XCTAssertNil(DigestHeader.checksum(["SHA-256=notbase64!", "UNIXsum=30637", "SHA-256=AAAA"]))
    }

    // MARK: Metalink (RFC 5854)

    static let metalink4 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <published>2009-05-15T12:23:23Z</published>
          <file name="example.ext">
            <size>14471447</size>
            <identity>Example</identity>
            <version>1.0</version>
            <description>A description of the example file for download.</description>
            <hash type="sha-256">\(String(repeating: "f0", count: 32))</hash>
            <pieces length="8388608" type="sha-1">
              <hash>\(String(repeating: "1a", count: 20))</hash>
              <hash>\(String(repeating: "2B", count: 20))</hash>
            </pieces>
            <url location="de" priority="2">http://example.com/example.ext</url>
            <url location="fr" priority="1">https://mirror.example.net/example.ext</url>
            <url priority="3">ftp://ftp.example.com/example.ext</url>
            <metaurl mediatype="torrent" priority="2">http://example.com/example.ext.torrent</metaurl>
          </file>
          <file name="../../etc/passwd"><url>file:///etc/passwd</url><url>http://x/p</url></file>
        </metalink>
        """

    func testAMetalink4DocumentAsRFC5854WritesIt() throws {
        let metalink = try Metalink(parsing: Data(Self.metalink4.utf8))
        XCTAssertEqual(metalink.files.count, 2)
        let file = metalink.files[0]
        XCTAssertEqual(file.name, "example.ext")
        XCTAssertEqual(file.size, 14_471_447)
        XCTAssertEqual(file.checksum, try Checksum(.sha256, hex: String(repeating: "f0", count: 32)))
        XCTAssertEqual(file.pieces?.algorithm, .sha1)
        XCTAssertEqual(file.pieces?.length, 8_388_608)
        XCTAssertEqual(file.pieces?.hashes, [String(repeating: "1a", count: 20), String(repeating: "2b", count: 20)])
        XCTAssertEqual(file.pieces?.range(of: 1, total: 14_471_447), 8_388_608..<14_471_447)
        XCTAssertEqual(
            file.sources.map(\.url), ["https://mirror.example.net/example.ext", "http://example.com/example.ext"],
            "by priority; ftp is skipped")
        XCTAssertEqual(file.skippedSchemes, ["ftp"])
        XCTAssertTrue(file.sources.allSatisfy { $0.origin == .metalink })
        XCTAssertEqual(file.folders, [])
        // A name leading out of the folder keeps its last part only; a file: URL is skipped.
        XCTAssertEqual(metalink.files[1].name, "passwd")
        XCTAssertEqual(metalink.files[1].folders, [])
        XCTAssertEqual(metalink.files[1].path, "passwd")
        XCTAssertEqual(metalink.files[1].sources.map(\.url), ["http://x/p"])
        XCTAssertEqual(metalink.files[1].skippedSchemes, ["file"])
    }

    /// RFC 5854's names with folders, kept as aria2c keeps them: a request asks for the path.
    func testANameWithFoldersKeepsThem() throws {
        let text = Self.metalink4.replacingOccurrences(of: "name=\"example.ext\"", with: "name=\"isos/v2/example.ext\"")
        let file = try XCTUnwrap(Metalink(parsing: Data(text.utf8)).files.first)
        XCTAssertEqual(file.name, "example.ext")
        XCTAssertEqual(file.folders, ["isos", "v2"])
        XCTAssertEqual(file.request(into: "/d")?.requestedName, "isos/v2/example.ext")
    }

    func testPieceHashesThatDoNotCoverTheFileAreLeftOut() throws {
        let text = Self.metalink4.replacingOccurrences(of: "<size>14471447</size>", with: "<size>20000000</size>")
        let metalink = try Metalink(parsing: Data(text.utf8))
        XCTAssertNil(metalink.files[0].pieces, "three pieces of 8 MiB are needed for 20 MB")
        XCTAssertNotNil(metalink.files[0].checksum)
    }

    func testAMetalink3Document() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <metalink version="3.0" xmlns="http://www.metalinker.org/">
              <files>
                <file name="a.iso">
                  <size>100</size>
                  <verification><hash type="sha256">\(String(repeating: "ee", count: 32))</hash></verification>
                  <resources>
                    <url type="http" preference="10">http://slow.example/a.iso</url>
                    <url type="http" preference="100">http://fast.example/a.iso</url>
                  </resources>
                </file>
              </files>
            </metalink>
            """
        let file = try XCTUnwrap(try Metalink(parsing: Data(text.utf8)).files.first)
        XCTAssertEqual(file.name, "a.iso")
        XCTAssertEqual(file.checksum?.algorithm, .sha256)
        XCTAssertEqual(file.sources.map(\.url), ["http://fast.example/a.iso", "http://slow.example/a.iso"])
    }

    func testMalformedXMLIsOneSentence() {
        for text in ["<metalink><file name=\"a\">", "not xml at all", "<html><body>hi</body></html>"] {
            XCTAssertThrowsError(try Metalink(parsing: Data(text.utf8))) { error in
                let message = (error as? InputError)?.message ?? ""
                XCTAssertTrue(message.contains("Metalink"), message)
            }
        }
        XCTAssertThrowsError(try Metalink(parsing: Data("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"/>".utf8)))
    }

    func testTenThousandFilesAreReadAndOneMoreIsRefused() throws {
        func document(_ count: Int) -> Data {
            var text = "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">"
            for i in 0..<count { text += "<file name=\"f\(i)\"><url>http://h/\(i)</url></file>" }
            return Data((text + "</metalink>").utf8)
        }
        XCTAssertEqual(try Metalink(parsing: document(Metalink.mostFiles)).files.count, Metalink.mostFiles)
        XCTAssertThrowsError(try Metalink(parsing: document(Metalink.mostFiles + 1)))
    }

    func testAnEntityBombIsNotExpanded() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE metalink [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="&d;"><url>http://h/x</url></file></metalink>
            """
        // Read or refused, it ends at once and never holds a name longer than a file name may be.
        if let metalink = try? Metalink(parsing: Data(text.utf8)) {
            XCTAssertTrue(metalink.files.allSatisfy { $0.name.utf8.count <= 255 })
        }
    }

    // MARK: Which source a connection goes to

    func testEverySourceIsTriedOnceThenConnectionsGoWhereTheyDeliverMost() {
        var board = SourceBoard(
            primary: "http://a/f",
            mirrors: [
                DownloadSource(url: "http://b/f", origin: .user), DownloadSource(url: "http://c/f", origin: .link),
            ])
        board.connected(0)
        XCTAssertEqual(board.pick { _ in true }, 1, "an untried source first")
        board.connected(1)
        XCTAssertEqual(board.pick { _ in true }, 2)
        board.connected(2)
        board.measured([0: 1_000_000, 1: 4_000_000, 2: 500_000])
        XCTAssertEqual(board.pick { _ in true }, 1, "the most per connection")
        XCTAssertEqual(board.pick { $0 != 1 }, 0, "its server is full: the next best")
        board.connected(1)
        board.measured([0: 1_000_000, 1: 4_000_000, 2: 500_000])
        XCTAssertEqual(board.pick { _ in true }, 1, "2 MB/s per connection is still the most")
    }

    func testASourceThatTurnsAConnectionAwayKeepsTheOnesItHas() {
        var board = SourceBoard(primary: "http://a/f", mirrors: [DownloadSource(url: "http://b/f", origin: .user)])
        board.connected(0)
        board.connected(1)
        board.connected(1)
        XCTAssertTrue(board.turnedAway(1), "it still has one")
        board.disconnected(1)
        XCTAssertNotEqual(board.pick { _ in true }, 1, "no more than it took")
        XCTAssertFalse(board.turnedAway(0), "the first source's only connection: it has none left")
    }

    func testADroppedSourceGetsNoConnectionAndANewRunTriesAFailedOneAgain() {
        var board = SourceBoard(primary: "http://a/f", mirrors: [DownloadSource(url: "http://b/f", origin: .user)])
        board.connected(0)
        board.drop(1, .failed(.status(503)))
        XCTAssertEqual(board.pick { _ in true }, 0)
        XCTAssertEqual(board.usableCount, 1)
        var banned = DownloadSource(url: "http://c/f", origin: .metalink)
        banned.problem = .badPiece(index: 3)
        banned.banned = true
        var other = DownloadSource(url: "http://d/f", origin: .link)
        other.problem = .sizeDiffers(size: 1, expected: 2)
        let again = DownloadSource.forNewRun(board.mirrors + [banned, other])
        XCTAssertEqual(again.map(\.isUsable), [true, false, false])
    }

    func testSourcesAreOrderedByPriorityOncePerURL() {
        let sources = [
            DownloadSource(url: "http://x/1", origin: .link, priority: 5),
            DownloadSource(url: "http://x/2", origin: .link),
            DownloadSource(url: "http://x/3", origin: .link, priority: 1),
            DownloadSource(url: "http://x/3", origin: .link, priority: 1),
            DownloadSource(url: "http://primary/", origin: .link, priority: 0),
        ]
        XCTAssertEqual(
            DownloadSource.ordered(sources, excluding: "http://primary/").map(\.url),
            ["http://x/3", "http://x/1", "http://x/2"])
    }

    func testSourcesAreListedWithTheFirstOneAndPasswordsHidden() {
        var d = Download(id: DownloadID(rawValue: "abc"), url: "http://u:pw@a/f", directory: "/tmp", queueOrder: 0)
        d.receivedBytes = 100
        var mirror = DownloadSource(url: "http://v:secret@b/f", origin: .user)
        mirror.bytes = 30
        mirror.problem = .otherContent
        d.request.sources = [mirror]
        let listed = d.listedSources
        XCTAssertEqual(listed.map(\.bytes), [70, 30])
        XCTAssertEqual(listed.map(\.state), ["usable", "dropped"])
        XCTAssertFalse(listed.contains { $0.url.contains("secret") || $0.url.contains("pw") })
        XCTAssertNotNil(listed[1].reason)
    }
}
