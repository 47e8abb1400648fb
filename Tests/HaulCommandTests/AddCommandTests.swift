import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulTestSupport
import XCTest

@testable import haul

/// `haul add` against the haul that owns the state, through the real socket.
final class AddCommandTests: XCTestCase {
    func testAnAddRefusedByAnOwnerThatBeganToStopGoesToWhoeverHasTheStateNext() async throws {
        let dir = TestDirectory("haul-add")
        let statePath = dir.path + "/state.json"
        let options = try StateOptions.parse(["--state", statePath])
        let engine = try Engine(configuration: options.engineConfiguration())
        // A server whose engine has stopped but which still greets: the moment between the two.
        let server = EngineServer(engine: engine, location: options.socketLocation, kind: .get)
        try server.start()
        await engine.shutdown()

        let command = try AddCommand.parse([
            "--state", statePath, "--paused", "-d", dir.path, "http://127.0.0.1:9/a.iso",
        ])
        let adding = Task { try await command.run() }
        try await Task.sleep(for: .milliseconds(300))
        server.stop()
        try await adding.value

        // The command kept the state (it holds it until its process ends): its save is read.
        let saved = try String(contentsOfFile: statePath, encoding: .utf8)
        XCTAssertEqual(
            saved.components(separatedBy: "http://127.0.0.1:9/a.iso").count - 1, 1, "added once, by the command itself")
    }
}
