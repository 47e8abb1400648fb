import Foundation
import HaulCore
import XCTest

@testable import HaulUI

/// A download fetched from several sources shows them: how many in its row, each with what it
/// served and why one is no longer used in its details.
final class SourcesViewTests: XCTestCase {
    func download() -> Download {
        var d = Download(
            id: DownloadID(rawValue: "abc123"), url: "http://first.example/f.iso", directory: "/tmp", queueOrder: 0)
        d.fileName = "f.iso"
        d.receivedBytes = 3 << 20
        d.totalBytes = 8 << 20
        var good = DownloadSource(url: "http://second.example:8080/f.iso", origin: .link)
        good.bytes = 1 << 20
        var bad = DownloadSource(url: "http://third.example/f.iso", origin: .metalink)
        bad.problem = .badPiece(index: 4)
        bad.banned = true
        d.request.sources = [good, bad]
        d.request.pieceHashes = PieceHashes(
            algorithm: .sha256, length: 1 << 20, hashes: Array(repeating: "00", count: 8))
        return d
    }

    func testTheDetailsListEachSourceWithItsBytesAndWhyOneIsBanned() {
        let text = DetailsView.lines(for: download(), sample: nil, width: 120, now: Date()).map(\.0).joined(
            separator: "\n")
        XCTAssertTrue(text.contains("Sources"), text)
        XCTAssertTrue(text.contains("first.example  2.0 MiB  usable"), text)
        XCTAssertTrue(text.contains("second.example:8080  1.0 MiB  usable"), text)
        XCTAssertTrue(text.contains("third.example  0 B  banned: piece 4 it sent failed its hash"), text)
        XCTAssertTrue(text.contains("8 of 1.0 MiB, each checked by SHA-256"), text)
    }

    /// A torrent's details leave out what only HTTP has (its swarm's lines come after them).
    func testATorrentsDetailsLeaveOutWhatOnlyHTTPHas() {
        var d = Download(
            id: DownloadID(rawValue: "abc124"), url: "magnet:?xt=urn:btih:" + String(repeating: "ab", count: 20),
            directory: "/tmp", queueOrder: 0)
        XCTAssertTrue(d.start())
        d.activeConnections = 3
        let sample = ProgressSample(
            id: d.id, receivedBytes: 1, totalBytes: 10, bytesPerSecond: 1, etaSeconds: 9, connections: 3)
        let labels = DetailsView.lines(for: d, sample: sample, width: 120, now: Date()).map {
            String($0.0.prefix(DetailsView.labelWidth)).trimmingCharacters(in: .whitespaces)
        }
        for label in DetailsView.httpOnly { XCTAssertFalse(labels.contains(label), label) }
        XCTAssertTrue(labels.contains("URL") && labels.contains("Size") && labels.contains("Retries"), "\(labels)")
        d.url = "http://first.example/f.iso"
        let http = DetailsView.lines(for: d, sample: sample, width: 120, now: Date()).map(\.0).joined()
        XCTAssertTrue(http.contains("ETag") && http.contains("Connections"), http)
    }

    func testADownloadWithoutMirrorsShowsNoSourcesLine() {
        var d = download()
        d.request.sources = []
        let text = DetailsView.lines(for: d, sample: nil, width: 120, now: Date()).map(\.0).joined(separator: "\n")
        XCTAssertFalse(text.contains("Sources"))
    }

    func testTheRowCountsTheSourcesInUse() {
        XCTAssertEqual(ListRow(download()).sources, 2, "the banned one is not counted")
        var plain = download()
        plain.request.sources = []
        XCTAssertNil(ListRow(plain).sources)
    }
}
