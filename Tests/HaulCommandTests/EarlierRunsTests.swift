import Foundation
import HaulCore
import XCTest

@testable import haul

/// What `haul URL…` takes up of an earlier run of the same command, and the downloads it follows.
final class EarlierRunsTests: XCTestCase {
    let when = Date(timeIntervalSince1970: 1_795_000_000)
    var order: UInt64 = 0

    func download(_ url: String, in directory: String = "/d", name: String? = nil) -> Download {
        order += 1
        let id = DownloadID(rawValue: String(format: "%06x", order))
        return Download(id: id, url: url, directory: directory, requestedName: name, queueOrder: order)
    }

    func finished(_ d: Download, as fileName: String) -> Download {
        var d = d
        XCTAssertTrue(d.finish(fileName: fileName, size: 1, at: when))
        return d
    }

    /// `d` after its URL served a Metalink (or a torrent file): it is fetched from `url` now.
    func became(_ d: Download, _ url: String) -> Download {
        var d = d
        d.previousURLs.append(d.url)
        d.url = url
        return d
    }

    func testTheSameURLInTheSameFolderIsTakenUpAndAFinishedOneOnlyWhileItsFileIsThere() {
        let unfinished = download("http://h/a")
        let done = finished(download("http://h/b"), as: "b")
        let gone = finished(download("http://h/c"), as: "c")
        let named = finished(download("http://h/e", name: "mine"), as: "mine")
        let runs = EarlierRuns([unfinished, done, gone, named]) { $0 == "/d/b" || $0 == "/d/mine" }
        XCTAssertEqual(runs.left(by: DownloadRequest(url: "http://h/a", directory: "/d")).map(\.id), [unfinished.id])
        XCTAssertEqual(runs.left(by: DownloadRequest(url: "http://h/b", directory: "/d")).map(\.id), [done.id])
        XCTAssertEqual(runs.left(by: DownloadRequest(url: "http://h/c", directory: "/d")), [], "its file is gone")
        XCTAssertEqual(runs.left(by: DownloadRequest(url: "http://h/a", directory: "/other")), [], "another folder")
        XCTAssertEqual(
            runs.left(by: DownloadRequest(url: "http://h/e", directory: "/d", requestedName: "mine")).map(\.id),
            [named.id])
        XCTAssertEqual(
            runs.left(by: DownloadRequest(url: "http://h/e", directory: "/d", requestedName: "yours")), [],
            "another name asked for is another copy")
    }

    func testAMetalinksURLFindsEveryFileItBecameWhateverTheirNames() {
        let meta = "http://h/files.meta4"
        let firstFile = became(download(meta), "http://m/one")
        var secondFile = download("http://m/two")
        secondFile.previousURLs = [meta]
        let secondDone = finished(secondFile, as: "two")
        var elsewhere = download("http://m/three", in: "/other")
        elsewhere.previousURLs = [meta]
        let runs = EarlierRuns([firstFile, secondDone, elsewhere]) { $0 == "/d/two" }
        let left = runs.left(by: DownloadRequest(url: meta, directory: "/d"))
        XCTAssertEqual(Set(left.map(\.id)), [firstFile.id, secondDone.id])
        XCTAssertEqual(runs.left(by: DownloadRequest(url: meta, directory: "/d", requestedName: "x")).count, 2)
        XCTAssertEqual(runs.gone(by: DownloadRequest(url: meta, directory: "/d")), [])

        // A file of it finished and deleted since is fetched again by the same download.
        let firstDone = finished(firstFile, as: "one")
        let deleted = EarlierRuns([firstDone, secondDone]) { $0 == "/d/one" }
        XCTAssertEqual(deleted.left(by: DownloadRequest(url: meta, directory: "/d")).map(\.id), [firstDone.id])
        XCTAssertEqual(deleted.gone(by: DownloadRequest(url: meta, directory: "/d")).map(\.id), [secondDone.id])
        XCTAssertEqual(deleted.gone(by: DownloadRequest(url: meta, directory: "/other")), [], "another folder")

        // A link given anew by `haul refresh`: the first URL still finds it, and the new one too.
        var refreshed = download("http://h/old")
        XCTAssertTrue(refreshed.changeLink(to: "http://h/new"))
        let again = EarlierRuns([refreshed]) { _ in false }
        XCTAssertEqual(again.left(by: DownloadRequest(url: "http://h/old", directory: "/d")).map(\.id), [refreshed.id])
        XCTAssertEqual(again.left(by: DownloadRequest(url: "http://h/new", directory: "/d")).map(\.id), [refreshed.id])
    }

    /// A Metalink's files in folders of their own below the command's: found by the URL and a
    /// folder at or below the command's, not in a folder beside it.
    func testAMetalinksFilesInFoldersBelowAreFoundAndOnesBesideAreNot() {
        let meta = "http://h/tree.meta4"
        let first = became(download(meta, in: "/d/linux"), "http://m/a")
        var second = download("http://m/b", in: "/d/windows/x86")
        second.previousURLs = [meta]
        var beside = download("http://m/c", in: "/dd")
        beside.previousURLs = [meta]
        let runs = EarlierRuns([first, second, beside]) { _ in false }
        XCTAssertEqual(
            Set(runs.left(by: DownloadRequest(url: meta, directory: "/d")).map(\.id)), [first.id, second.id])
        XCTAssertEqual(runs.left(by: DownloadRequest(url: meta, directory: "/d/windows")).map(\.id), [second.id])
        XCTAssertEqual(PathText.enclosingFolders(of: "/d/linux/x86"), ["/d/linux/x86", "/d/linux", "/d", "/"])

        var followed = FollowedDownloads([first.id])
        _ = followed.take(.added(Download(id: first.id, url: meta, directory: "/d", queueOrder: 1)))
        _ = followed.take(.updated(first))
        _ = followed.take(.added(second))
        _ = followed.take(.added(beside))
        XCTAssertEqual(followed.ids, [first.id, second.id])
    }

    func testAFollowedDownloadsMetalinkFilesAreFollowedToo() {
        let meta = "http://h/files.meta4"
        let first = download(meta)
        var followed = FollowedDownloads([first.id])
        followed.apply([first])
        var other = download("http://m/two")
        other.previousURLs = [meta]
        var stranger = download("http://m/three", in: "/other")
        stranger.previousURLs = [meta]
        // One burst, in the engine's order: the first download became the Metalink's first file,
        // then the others were added naming the Metalink's URL.
        let burst: [EngineEvent] = [.updated(became(first, "http://m/one")), .added(other), .added(stranger)]
        XCTAssertEqual(burst.filter { followed.take($0) }.count, 2, "not the one in another folder")
        XCTAssertEqual(followed.ids, [first.id, other.id])
        XCTAssertFalse(followed.allDone)
        XCTAssertTrue(followed.take(.updated(finished(became(first, "http://m/one"), as: "one"))))
        XCTAssertFalse(followed.allDone, "the Metalink's other file is waited for")
        XCTAssertTrue(followed.take(.updated(finished(other, as: "two"))))
        XCTAssertTrue(followed.allDone)
    }
}
