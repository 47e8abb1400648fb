import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore
import HaulTestSupport
import XCTest

@testable import haul

/// `haul pause`, `resume` and the other commands on existing downloads, against the haul that
/// owns the state, through the real socket.
final class ControlCommandTests: XCTestCase {
    func testAPauseRefusedByAnOwnerThatBeganToStopGoesToWhoeverHasTheStateNext() async throws {
        let dir = TestDirectory("haul-pause")
        let statePath = dir.path + "/state.json"
        let options = try StateOptions.parse(["--state", statePath])
        let engine = try Engine(configuration: options.engineConfiguration())
        // Queued and never started: the engine is not running its queue.
        let ids = try await engine.perform(
            .add([DownloadRequest(url: "http://127.0.0.1:9/a.iso", directory: dir.path)]))
        try await engine.save()
        // A server whose engine has stopped but which still greets: the moment between the two.
        let server = EngineServer(engine: engine, location: options.socketLocation, kind: .get)
        try server.start()
        await engine.shutdown()

        let command = try PauseCommand.parse(["--state", statePath, ids[0].rawValue])
        let pausing = Task { try await command.run() }
        try await Task.sleep(for: .milliseconds(300))
        server.stop()
        try await pausing.value

        // The command kept the state (it holds it until its process ends): its save is read.
        let saved = try StateFile(path: statePath).loadReadOnly()
        XCTAssertEqual(saved.downloads.map(\.state.isPaused), [true], "paused, by the command itself")
    }
}
