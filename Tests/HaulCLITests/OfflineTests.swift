import Foundation
import HaulTestSupport
import XCTest

/// haul on a machine whose network is gone: in a network namespace of its own whose link to the
/// host is down (no route at all), then brought up.
final class OfflineTests: CLITestCase {
    var children: [ChildProcess] = []

    override func tearDown() async throws {
        for child in children { await child.terminate() }
        try await super.tearDown()
    }

    /// A download started while nothing answers for want of a network is not failed after its
    /// attempts: it says it waits, and finishes once the network is back. A name to look up
    /// waits the same way.
    func testADownloadWaitsForTheNetworkInsteadOfFailing() async throws {
        guard NetworkNamespace.isPossible else { throw XCTSkip("network namespaces need root and iproute2") }
        let namespace = try await NetworkNamespace(linkUp: false, in: dir.path)
        addTeardownBlock { await namespace.remove() }
        let www = dir.subdirectory("www")
        try TestFiles.random(www + "/far.bin", size: 2_000_000)
        let port = FreePort.find()
        let serverLog = dir.path + "/server.log"
        children.append(
            try ChildProcess(
                "/usr/bin/python3",
                ["-m", "http.server", "--bind", namespace.hostAddress, "--directory", www, String(port)],
                environment: [:], stdout: serverLog, stderr: serverLog))
        try await waitUntil { FreePort.isListening(port, host: namespace.hostAddress) }

        /// `haul -d DOWNLOADS URL` started in the namespace, with its own state and output.
        func start(_ url: String, _ name: String) throws -> (ChildProcess, () -> String) {
            let log = dir.path + "/\(name).log"
            let (executable, arguments) = namespace.command([HaulBinary.path, "-d", downloads, url])
            let child = try ChildProcess(
                executable, arguments, environment: environment(["HAUL_STATE": dir.path + "/\(name)/state.json"]),
                stdout: log, stderr: log)
            children.append(child)
            return (child, { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" })
        }

        let (haul, said) = try start("http://\(namespace.hostAddress):\(port)/far.bin", "by-address")
        try await waitUntil { said().contains("no network, waiting for it to come back") }
        XCTAssertTrue(said().contains("network unreachable"), said())
        // Five attempts with this test's back-off take well under a second: it would have failed.
        try await Task.sleep(for: .seconds(2))
        XCTAssertTrue(haul.isRunning, said())
        XCTAssertFalse(said().contains("retrying"), "waiting is not an attempt: \(said())")

        // A name is not looked up either: the name server is out of reach too.
        let etc = "/etc/netns/\(namespace.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "nameserver 192.0.2.53\n".write(toFile: etc + "/resolv.conf", atomically: true, encoding: .utf8)
        let (byName, saidByName) = try start("http://far.example:\(port)/far.bin", "by-name")
        try await waitUntil { saidByName().contains("no network, waiting for it to come back") }
        XCTAssertTrue(saidByName().contains("the name server did not answer"), saidByName())
        await byName.terminate()

        // On a terminal, the download's live line says it waits for the network.
        try FileManager.default.copyItem(atPath: www + "/far.bin", toPath: www + "/near.bin")
        let terminal = try await TmuxSession(
            command: namespace.shellLine([
                HaulBinary.path, "-d", downloads, "http://\(namespace.hostAddress):\(port)/near.bin",
            ]),
            width: 120, height: 20, environment: environment(["HAUL_STATE": dir.path + "/on-terminal/state.json"]),
            workDirectory: dir.subdirectory("terminal"))
        addTeardownBlock { await terminal.kill() }
        _ = try await terminal.waitFor { $0.contains("no network, waiting  near.bin") }

        try await namespace.inside("ip", "link", "set", namespace.link, "up")
        try await namespace.inside("ip", "route", "add", "default", "via", namespace.hostAddress)
        let status = await haul.wait(timeout: 30)
        XCTAssertEqual(status, 0, said())
        XCTAssertTrue(sameFile(www + "/far.bin", downloads + "/far.bin"), said())
        _ = try await terminal.waitFor(timeout: 30) { $0.contains("done: 1 finished") }
        XCTAssertTrue(sameFile(www + "/near.bin", downloads + "/near.bin"))
    }
}
