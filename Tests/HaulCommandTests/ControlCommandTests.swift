import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore
import HaulTestSupport
import XCTest

@testable import haul

/// `haul pause`, `limit`, `move` and the other commands that ask and change, against the haul
/// that owns the state, through the real socket.
final class ControlCommandTests: XCTestCase {
    /// `command` (given the state's path and its one download) run against a state with one
    /// queued download, served by an owner whose engine has stopped but which still greets: the
    /// moment between the two. The owner stops serving 300 ms later. Returns the state as saved.
    func runAgainstAStoppingOwner(_ command: @escaping (String, DownloadID) throws -> any AsyncParsableCommand)
        async throws -> StateDocument
    {
        let dir = TestDirectory("haul-control")
        let statePath = dir.path + "/state.json"
        let options = try StateOptions.parse(["--state", statePath])
        let engine = try Engine(configuration: options.engineConfiguration())
        // Queued and never started: the engine is not running its queue.
        let ids = try await engine.perform(
            .add([DownloadRequest(url: "http://127.0.0.1:9/a.iso", directory: dir.path)]))
        try await engine.save()
        let server = EngineServer(engine: engine, location: options.socketLocation, kind: .get)
        try server.start()
        await engine.shutdown()

        let parsed = try command(statePath, ids[0])
        let running = Task {
            var command = parsed
            try await command.run()
        }
        try await Task.sleep(for: .milliseconds(300))
        server.stop()
        try await running.value
        // The command kept the state (it holds it until its process ends): its save is read.
        return try StateFile(path: statePath).loadReadOnly()
    }

    func testAPauseRefusedByAnOwnerThatBeganToStopGoesToWhoeverHasTheStateNext() async throws {
        let saved = try await runAgainstAStoppingOwner { try PauseCommand.parse(["--state", $0, $1.rawValue]) }
        XCTAssertEqual(saved.downloads.map(\.state.isPaused), [true], "paused, by the command itself")
    }

    /// Every command that asks and changes goes on with the next owner: a setting, and a move.
    func testASettingAndAMoveRefusedByAStoppingOwnerGoToWhoeverHasTheStateNext() async throws {
        let limited = try await runAgainstAStoppingOwner { path, _ in try LimitCommand.parse(["--state", path, "2M"]) }
        XCTAssertEqual(limited.settings.speedLimit?.rate, 2 << 20)
        let moved = try await runAgainstAStoppingOwner { path, id in
            try MoveCommand.parse(["--state", path, id.rawValue, "top"])
        }
        XCTAssertEqual(moved.downloads.count, 1)
    }
}
