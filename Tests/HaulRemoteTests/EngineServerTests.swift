import Foundation
import HaulCore
import HaulEngine
import HaulTestSupport
import Synchronization
import XCTest

@testable import HaulRemote

#if canImport(Glibc)
    import Glibc
#endif

/// A real engine served on a real Unix socket, reached by real `RemoteEngine` clients.
final class EngineServerTests: XCTestCase {
    var dir: TestDirectory!
    var engine: Engine!
    var server: EngineServer?

    override func setUp() async throws {
        dir = TestDirectory("haul-remote")
        var configuration = EngineConfiguration(statePath: dir.path + "/state/state.json")
        configuration.recordsAway = true
        engine = try Engine(configuration: configuration)
    }

    override func tearDown() async throws {
        server?.stop()
        await engine.shutdown()
        dir = nil
    }

    var location: SocketLocation { SocketLocation(statePath: dir.path + "/state/state.json", environment: [:]) }

    func serve(allowedUID: uid_t = geteuid()) throws -> EngineServer {
        let server = EngineServer(engine: engine, location: location, kind: .daemon, allowedUID: allowedUID)
        try server.start()
        self.server = server
        return server
    }

    func add(_ session: any EngineSession, _ name: String) async throws -> DownloadID {
        try await session.perform(
            .add([DownloadRequest(url: "http://127.0.0.1:9/\(name)", directory: dir.path, paused: true)]))[0]
    }

    func testSocketLocationFollowsTheRuntimeDirectoryAndKeepsStateFilesApart() {
        let a = SocketLocation(
            statePath: "/home/u/.local/state/haul/state.json", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(a.directory, "/run/user/1000/haul")
        XCTAssertTrue(a.path.hasPrefix("/run/user/1000/haul/") && a.path.hasSuffix(".sock"))
        let b = SocketLocation(statePath: "/home/u/other.json", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertNotEqual(a.path, b.path)
        XCTAssertEqual(
            a,
            SocketLocation(
                statePath: "/home/u/.local/state/haul/state.json", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]),
            "stable")
        let fallback = SocketLocation(
            statePath: "/home/u/.local/state/haul/state.json", environment: ["XDG_RUNTIME_DIR": "relative"])
        XCTAssertEqual(fallback.directory, "/home/u/.local/state/haul/run")
    }

    func testCommandsFromOneClientReachAnotherAttachedClientAsEvents() async throws {
        _ = try serve()
        let ui = try await unwrapAsync(try await RemoteEngine.connect(location))
        XCTAssertEqual(ui.kind, .daemon)
        XCTAssertEqual(ui.pid, getpid())
        let attachment = try await ui.attach(ui: true)
        XCTAssertEqual(try attachment.snapshot.downloads.all, [])
        var events = attachment.events.makeAsyncIterator()

        let command = try await unwrapAsync(try await RemoteEngine.connect(location))
        let id = try await add(command, "x.iso")
        try await command.save()
        guard case .added(let added)? = await events.next() else { return XCTFail("expected the added event") }
        XCTAssertEqual(added.id, id)
        let listed = try await command.snapshot().downloads.all.map(\.id)
        XCTAssertEqual(listed, [id])
        let attachedUIs = await engine.attachedUICount
        XCTAssertEqual(attachedUIs, 1)

        do {
            try await command.perform(.resume(.ids([DownloadID(rawValue: "ffffff")])))
        } catch let error as InputError {
            XCTAssertFalse(error.message.isEmpty, "the engine's refusal comes back as one message")
        }
        ui.close()
        try await waitUntil { await self.engine.attachedUICount == 0 }
        command.close()
    }

    func testWhatHappensWithoutAUIIsHandedToTheNextOne() async throws {
        _ = try serve()
        let command = try await unwrapAsync(try await RemoteEngine.connect(location))
        let id = try await add(command, "gone.bin")
        try await command.perform(.remove(.ids([id]), deleteFiles: false))
        let failing = try await add(command, "y.bin")
        try await command.perform(.cancel(.ids([failing]))) // cancelled: failed, "cancelled by user"
        let ui = try await unwrapAsync(try await RemoteEngine.connect(location))
        let away = try await ui.attach(ui: true).away
        XCTAssertEqual(away?.entries.map(\.outcome), [.failed])
        XCTAssertEqual(away?.entries.first?.name, "y.bin")
        let again = try await unwrapAsync(try await RemoteEngine.connect(location))
        let second = try await again.attach(ui: true)
        XCTAssertNil(second.away, "taken by the first UI")
    }

    func testAClientOfAStoppedEngineKnowsItsOwnerIsLeavingAndAClosedDoorGreetsNoOne() async throws {
        let server = try serve()
        // A command connected but not attached: its connection stays open while the server drains.
        let command = try await unwrapAsync(try await RemoteEngine.connect(location))
        await engine.shutdown()
        XCTAssertFalse(command.isDisconnected)
        do {
            _ = try await add(command, "late.bin")
            XCTFail("a stopped engine took a download")
        } catch {
            XCTAssertEqual(error as? InputError, .engineStopped)
        }
        XCTAssertTrue(command.isDisconnected, "the answer says the owner is on its way out")

        let before = try await RemoteEngine.connect(location)
        XCTAssertNotNil(before, "the door is open until it is closed")
        before?.close()
        server.closeDoor()
        let after = try await RemoteEngine.connect(location)
        XCTAssertNil(after, "no greeting once the door is closed: the client waits for the state instead")
        command.close()
    }

    func testAnotherUIDIsRefusedBeforeAnythingIsServed() async throws {
        _ = try serve(allowedUID: geteuid() &+ 4242)
        do {
            _ = try await RemoteEngine.connect(location)
            XCTFail("connected although the server serves another uid")
        } catch {
            XCTAssertTrue(error.message.contains("refused"), error.message)
        }
    }

    func testNoServerMeansNilAndAStaleSocketIsReplaced() async throws {
        let none = try await RemoteEngine.connect(location)
        XCTAssertNil(none)
        let first = try serve()
        first.stop()
        // A killed server leaves its socket file; connecting to it finds no one.
        _ = try UnixSocket.listen(at: location.path) // bound but never accepting, then closed below
        let fd = try UnixSocket.connect(to: location.path)
        close(fd)
        let second = try serve()
        let remote = try await RemoteEngine.connect(location)
        XCTAssertNotNil(remote, "the new server replaced the stale socket")
        remote?.close()
        second.stop()
    }

    func testTheSocketFileIsPrivateFromTheMomentItExists() throws {
        try SocketTrust.prepareDirectory(location.directory)
        let previous = umask(0o022) // the usual umask, which left a bound socket 0755
        defer { umask(previous) }
        let fd = try UnixSocket.bound(at: location.path)
        defer { close(fd) }
        var info = stat()
        XCTAssertEqual(lstat(location.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "mode \(String(info.st_mode & 0o777, radix: 8)) before any chmod")
    }

    func testADirectoryOthersCanReachIsRefusedByTheClient() async throws {
        _ = try serve()
        chmod(location.directory, 0o755)
        do {
            _ = try await RemoteEngine.connect(location)
            XCTFail("a directory others can reach was trusted")
        } catch {
            XCTAssertTrue(error.message.contains("it must be 0700"), error.message)
        }
        chmod(location.directory, 0o700)
        // Inside a private directory the socket's own mode does not matter (a service manager
        // makes them 0644).
        chmod(location.path, 0o644)
        let remote = try await RemoteEngine.connect(location)
        XCTAssertNotNil(remote)
        remote?.close()
    }

    /// A client from another build sends a request this server cannot read: it gets an answer
    /// naming the problem (an old client shows it), and a line that is not haul closes the connection.
    func testARequestFromAnotherVersionIsAnsweredNotDropped() async throws {
        _ = try serve()
        let fd = try UnixSocket.connect(to: location.path)
        defer { close(fd) }
        let hello = try Wire.decode(ServerMessage.self, from: try XCTUnwrap(readLine(fd)))
        XCTAssertEqual(hello, .hello(pid: getpid(), kind: .daemon, version: Wire.version))

        XCTAssertTrue(UnixSocket.writeAll(fd, Array(#"{"id":7,"request":{"frobnicate":{"_0":1}}}"#.utf8) + [0x0A]))
        let reply = try Wire.decode(ServerMessage.self, from: try XCTUnwrap(readLine(fd)))
        guard case .reply(7, .failed(let message)) = reply else { return XCTFail("\(reply)") }
        XCTAssertTrue(message.contains("is another version") && message.contains("haul daemon --stop"), message)

        XCTAssertTrue(UnixSocket.writeAll(fd, Array("GET / HTTP/1.1".utf8) + [0x0A]))
        XCTAssertNil(readLine(fd), "not haul: closed")
    }

    /// A server from before versions (its hello has none): every request but `shutdown` is
    /// refused here with what to do, before anything is sent; `shutdown` still goes through.
    func testAnOlderServerIsOnlyAskedToStop() async throws {
        try serve().stop() // leaves the private socket directory
        let listener = try UnixSocket.listen(at: location.path)
        defer { close(listener) }
        let received = Mutex<[String]>([])
        let served = Task.detached {
            let fd = accept(listener, nil, nil)
            defer { close(fd) }
            _ = UnixSocket.writeAll(fd, Array(#"{"hello":{"pid":4242,"kind":"daemon"}}"#.utf8) + [0x0A])
            while let line = readLine(fd) {
                received.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
                let request = try Wire.decode(ClientMessage.self, from: line)
                _ = UnixSocket.writeAll(fd, try Wire.encode(ServerMessage.reply(id: request.id, .done)))
            }
        }
        let remote = try await unwrapAsync(try await RemoteEngine.connect(location))
        XCTAssertEqual(remote.version, 1)
        do {
            _ = try await remote.snapshot()
            XCTFail("asked an older haul for its downloads")
        } catch let error as InputError {
            XCTAssertEqual(
                error.message,
                "the haul serving this state file (pid 4242) is another version; stop it with 'haul daemon --stop', "
                    + "then run the command again"
            )
        }
        try await remote.shutdownDaemon()
        remote.close()
        try await served.value
        XCTAssertEqual(received.withLock { $0 }.count, 1, "only the shutdown was sent")
        XCTAssertTrue(received.withLock { $0 }.first?.contains("shutdown") ?? false)
    }

    func unwrapAsync<T>(_ value: @autoclosure () async throws -> T?) async throws -> T {
        let v = try await value()
        return try XCTUnwrap(v)
    }

    func waitUntil(timeout: Double = 5, _ condition: () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("timed out")
    }
}

/// One line from a blocking socket (without its newline), nil at the end or after 5 s.
private func readLine(_ fd: Int32) -> [UInt8]? {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(fd, &byte, 1) == 1 {
        if byte == 0x0A { return line }
        line.append(byte)
    }
    return nil
}
