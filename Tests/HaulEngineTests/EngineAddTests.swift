import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// `EngineCommand.add` with many requests: all are checked before any is added.
final class EngineAddTests: EngineTestCase {
    func testABatchWithOneBadRequestAddsNothing() async throws {
        let engine = try makeEngine()
        let good = DownloadRequest(url: "http://127.0.0.1:9/a.bin", directory: downloadDirectory, paused: true)
        // A folder that cannot be made: the path runs through a file.
        _ = FileManager.default.createFile(atPath: dir.path + "/plain-file", contents: Data("x".utf8))
        let badDirectory = DownloadRequest(
            url: "http://127.0.0.1:9/b.bin", directory: dir.path + "/plain-file/sub", paused: true)
        let badName = DownloadRequest(
            url: "http://127.0.0.1:9/c.bin", directory: downloadDirectory, requestedName: "../up", paused: true)
        for bad in [badDirectory, badName] {
            do {
                try await engine.perform(.add([good, good, bad]))
                XCTFail("a batch with a bad request was accepted")
            } catch {
                XCTAssertTrue(
                    error.message.contains("is a file") || error.message.contains("leads out of the download's folder"),
                    error.message)
            }
        }
        let none = await engine.allDownloads
        XCTAssertEqual(none.count, 0, "nothing of a refused batch is added")
    }

    /// aria2's `out` with folders ("isos/a.iso"), from any door: the file goes in those folders,
    /// made below the request's folder, under the last part's name.
    func testANameWithFoldersPutsTheFileInThemBelowTheFolder() async throws {
        let engine = try makeEngine()
        let ids = try await engine.perform(
            .add([
                DownloadRequest(
                    url: "http://127.0.0.1:9/a.bin", directory: downloadDirectory, requestedName: "isos/new/a.iso",
                    paused: true)
            ]))
        let all = await engine.allDownloads
        let added = try XCTUnwrap(all.first { $0.id == ids.first })
        XCTAssertEqual(added.directory, downloadDirectory + "/isos/new")
        XCTAssertEqual(added.requestedName, "a.iso")
        var isFolder: ObjCBool = false
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: added.directory, isDirectory: &isFolder) && isFolder.boolValue)
    }

    func testABatchIsAddedInOrderWithItsURLsCanonical() async throws {
        let engine = try makeEngine()
        let urls = (0..<50).map { "  http://127.0.0.1:9/f\($0).bin " }
        let ids = try await engine.perform(
            .add(urls.map { DownloadRequest(url: $0, directory: downloadDirectory, paused: true) }))
        XCTAssertEqual(ids.count, 50)
        XCTAssertEqual(Set(ids).count, 50)
        let all = await engine.allDownloads
        XCTAssertEqual(all.map(\.id), ids, "list order is the order given")
        XCTAssertEqual(all.map(\.url), (0..<50).map { "http://127.0.0.1:9/f\($0).bin" })
        XCTAssertEqual(all.map(\.queueOrder), all.map(\.queueOrder).sorted())
        XCTAssertTrue(all.allSatisfy { $0.state.isPaused })
    }
}
