import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulTestSupport
import XCTest

@testable import haul

/// The process that owns the state, as the commands that reach it see it.
final class EngineHostTests: XCTestCase {
    func testAnOwnerWhoseEngineBeganToStopGreetsNoNewClient() async throws {
        let dir = TestDirectory("haul-host")
        let options = try StateOptions.parse(["--state", dir.path + "/state.json"])
        let engine = try Engine(configuration: options.engineConfiguration())
        let host = await EngineHost.start(
            engine, options: options, kind: .daemon, hooks: .none, log: { _ in })
        let connected = try await RemoteEngine.connect(options.socketLocation)
        let follower = try XCTUnwrap(connected)
        _ = try await follower.attach(ui: false)

        await engine.shutdown()
        // The socket file is still there until the host stops: only the door tells a newcomer.
        XCTAssertTrue(FileManager.default.fileExists(atPath: options.socketLocation.path))
        let newcomer = try await RemoteEngine.connect(options.socketLocation)
        XCTAssertNil(newcomer, "a client that came after the engine began to stop was greeted")
        newcomer?.close()
        follower.close()
        await host.stop()
    }
}
