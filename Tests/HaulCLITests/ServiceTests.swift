import Foundation
import HaulTestSupport
import XCTest

/// haul as a systemd user service: the units `haul service install` writes (checked by
/// `systemd-analyze verify`, installed through a `systemctl` that records its calls), and the
/// daemon started on demand by Debian's `systemd-socket-activate` on the sockets those units name.
final class ServiceTests: NginxCLITestCase {
    var children: [ChildProcess] = []
    /// An installed-looking haul (a hard link outside the build folder) and a fake `systemctl`.
    var bin: String { dir.path + "/bin" }
    var installed: String { bin + "/haul" }
    var runtime: String { dir.path + "/rt" }
    var units: String { dir.path + "/config/systemd/user" }
    var calls: String { dir.path + "/systemctl.calls" }

    override func setUp() async throws {
        try await super.setUp()
        _ = dir.subdirectory("bin")
        XCTAssertEqual(link(HaulBinary.path, installed), 0, "hard link: \(String(cString: strerror(errno)))")
        try """
        #!/bin/sh
        echo "$*" >> "\(calls)"
        [ -z "$FAKE_SYSTEMCTL_FAILS" ] || { echo "Failed to connect to bus: No medium found" >&2; exit 1; }
        case "$2" in is-enabled) echo enabled ;; is-active) echo inactive ;; esac
        """.write(toFile: bin + "/systemctl", atomically: true, encoding: .utf8)
        chmod(bin + "/systemctl", 0o755)
        mkdir(runtime, 0o700)
    }

    override func tearDown() async throws {
        for child in children { await child.terminate() }
        // The activation loop's last systemd-socket-activate outlives the loop's shell, listening
        // for a connection that never comes.
        if let text = try? String(contentsOfFile: dir.path + "/activator.pid", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGKILL)
        }
        try await super.tearDown()
    }

    var serviceEnvironment: [String: String] {
        [
            "PATH": "\(bin):/usr/bin:/bin", "XDG_CONFIG_HOME": dir.path + "/config", "XDG_RUNTIME_DIR": runtime,
            "USER": "tester",
        ]
    }

    func installedHaul(_ arguments: String..., env: [String: String] = [:]) async throws -> CommandResult {
        try await ChildProcess.run(
            installed, arguments, environment: environment(serviceEnvironment.merging(env) { $1 }), in: dir.path)
    }

    func recordedCalls() -> [String] {
        ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func testInstallWritesUnitsSystemdAcceptsAndUninstallRemovesThem() async throws {
        let port = FreePort.find()
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", "s")
        XCTAssertEqual(on.status, 0, on.stderr)

        // No user manager: one line, nothing written.
        var result = try await installedHaul("service", "install", env: ["FAKE_SYSTEMCTL_FAILS": "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no systemd user manager runs for this user"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: units))
        // A haul in a build folder is refused: the service would break with the next build.
        result = try await haul(["service", "install"], env: serviceEnvironment)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("make install"), result.stderr)

        try? FileManager.default.removeItem(atPath: calls)
        result = try await installedHaul("service", "install", "--now")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("loginctl enable-linger tester"), result.stdout)
        XCTAssertEqual(
            recordedCalls(),
            [
                "--user show-environment", "--user daemon-reload", "--user enable --now haul.socket haul-rpc.socket",
                "--user enable haul.service",
            ])
        let service = try String(contentsOfFile: units + "/haul.service", encoding: .utf8)
        XCTAssertTrue(service.contains("ExecStart=\(installed) daemon --exit-when-idle --state \(statePath)"), service)
        XCTAssertTrue(service.contains("Type=notify") && service.contains("NoNewPrivileges=yes"), service)
        let rpcSocket = try String(contentsOfFile: units + "/haul-rpc.socket", encoding: .utf8)
        XCTAssertTrue(rpcSocket.contains("ListenStream=127.0.0.1:\(port)\nFileDescriptorName=rpc"), rpcSocket)
        let socket = try String(contentsOfFile: units + "/haul.socket", encoding: .utf8)
        XCTAssertTrue(socket.contains("ListenStream=%t/haul/") && socket.contains("FileDescriptorName=control"), socket)

        // systemd's own reading of them (the man page is not installed here, so not looked up).
        let verify = try await ChildProcess.run(
            "/usr/bin/systemd-analyze",
            ["verify", "--man=no"] + ["haul.socket", "haul-rpc.socket", "haul.service"].map { units + "/" + $0 },
            environment: ["PATH": "/usr/bin:/bin"], in: units)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        result = try await installedHaul("service", "status")
        XCTAssertTrue(result.stdout.contains("installed: haul.socket, haul-rpc.socket, haul.service"), result.stdout)
        XCTAssertTrue(result.stdout.contains("enabled: enabled") && result.stdout.contains("lingering: no"))

        // With RPC off, installing again drops the RPC socket.
        let off = try await haul("rpc", "off")
        XCTAssertEqual(off.status, 0, off.stderr)
        result = try await installedHaul("service", "install")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: units + "/haul-rpc.socket"))

        try? FileManager.default.removeItem(atPath: calls)
        result = try await installedHaul("service", "uninstall")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            recordedCalls(),
            ["--user show-environment", "--user disable --now haul.socket haul.service", "--user daemon-reload"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: units), [])
    }

    /// The socket unit's control socket, inside `runtime` (what `%t` is for a user unit).
    func installedControlSocket() async throws -> String {
        let result = try await installedHaul("service", "install")
        XCTAssertEqual(result.status, 0, result.stderr)
        let socket = try String(contentsOfFile: units + "/haul.socket", encoding: .utf8)
        let line = try XCTUnwrap(socket.split(separator: "\n").first { $0.hasPrefix("ListenStream=%t/") })
        return runtime + "/" + line.dropFirst("ListenStream=%t/".count)
    }

    func testSocketActivationStartsTheDaemonOnDemandAndItExitsWhenIdle() async throws {
        try TestFiles.random(www + "/file.bin", size: 2_000_000)
        try TestFiles.random(www + "/big.bin", size: 4_000_000)
        let port = FreePort.find()
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", "s")
        XCTAssertEqual(on.status, 0, on.stderr)
        let control = try await installedControlSocket()
        mkdir(runtime + "/haul", 0o700)
        let notify = try DatagramListener(path: dir.path + "/notify.sock")

        // systemd-socket-activate listens, execs haul on the first connection and is gone with
        // it; a loop starts it again, as systemd keeps listening on a socket unit.
        let log = dir.path + "/activation.log"
        let passed = environment(["XDG_RUNTIME_DIR": runtime, "NOTIFY_SOCKET": notify.path])
        let variables = ["HOME", "PATH", "LANG", "HAUL_STATE", "XDG_DOWNLOAD_DIR", "XDG_RUNTIME_DIR", "NOTIFY_SOCKET"]
            .map { "-E \($0)=\(passed[$0]!)" }.joined(separator: " ")
        let script = """
            while [ ! -e "\(dir.path)/stop" ]; do
              systemd-socket-activate -l "\(control)" -l 127.0.0.1:\(port) --fdname=control:rpc \(variables) \
                "\(installed)" daemon --exit-when-idle --state "\(statePath)" &
              echo $! > "\(dir.path)/activator.pid"
              wait $!
            done
            """
        children.append(
            try ChildProcess(
                "/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], stdout: log, stderr: log))
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func starts() -> Int { logText().components(separatedBy: ") serving ").count - 1 }
        func stops() -> Int { logText().components(separatedBy: ") stopped").count - 1 }
        try await waitUntil { logText().contains("Listening on 127.0.0.1:\(port)") }

        // A command starts it.
        let commandEnvironment = ["XDG_RUNTIME_DIR": runtime]
        var result = try await haul(["ls", "--json"], env: commandEnvironment)
        XCTAssertEqual(result.status, 0, result.stderr + logText())
        try await waitUntil { starts() == 1 }
        XCTAssertTrue(logText().contains("on the sockets the service manager passed in"), logText())
        try await waitUntil(timeout: 20) { stops() == 1 }
        XCTAssertTrue(notify.messages.contains { $0.hasPrefix("READY=1\nSTATUS=") }, "\(notify.messages)")
        XCTAssertTrue(notify.messages.contains { $0.hasPrefix("STOPPING=1") }, "\(notify.messages)")

        // An RPC client starts it again, and adds a download, which finishes before it exits.
        try await waitUntil { starts() == 1 && logText().components(separatedBy: "Listening on 127").count == 3 }
        let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:s"]}"#
        result = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "--max-time", "20", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"],
            environment: ["PATH": "/usr/bin:/bin"], in: dir.path)
        XCTAssertTrue(result.stdout.contains(#""version":"#), result.stdout + logText())
        let add =
            #"{"jsonrpc":"2.0","id":2,"method":"aria2.addUri","params":["token:s",["\#(nginx.url("file.bin"))"]]}"#
        result = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "--max-time", "20", "-d", add, "http://127.0.0.1:\(port)/jsonrpc"],
            environment: ["PATH": "/usr/bin:/bin"], in: dir.path)
        XCTAssertTrue(result.stdout.contains(#""result":""#), result.stdout)
        try await waitUntil(timeout: 30) { stops() == 2 }
        XCTAssertEqual(starts(), 2, logText())
        XCTAssertTrue(sameFile(www + "/file.bin", downloads + "/file.bin"))

        // Nothing is lost across the stops: the next start knows the finished download.
        try await waitUntil { logText().components(separatedBy: "Listening on 127").count == 4 }
        result = try await haul(["ls", "--json"], env: commandEnvironment)
        XCTAssertTrue(result.stdout.contains("finished"), result.stdout)
        try await waitUntil { starts() == 3 }

        // A machine that goes down mid-download (the daemon killed outright): the next start
        // resumes it, as the service does at boot.
        let slowAdd =
            #"{"jsonrpc":"2.0","id":3,"method":"aria2.addUri","params":["token:s",["\#(nginx.url("slow/big.bin"))"]]}"#
        result = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "--max-time", "20", "-d", slowAdd, "http://127.0.0.1:\(port)/jsonrpc"],
            environment: ["PATH": "/usr/bin:/bin"], in: dir.path)
        XCTAssertTrue(result.stdout.contains(#""result":""#), result.stdout)
        // Killed once the add is saved (half a second after it) and bytes have come.
        try await waitUntil {
            (self.fileSize(self.downloads + "/big.bin.part") ?? 0) > 200_000
                && ((try? String(contentsOfFile: self.statePath, encoding: .utf8)) ?? "").contains("big.bin")
        }
        let pid = try XCTUnwrap(
            logText().components(separatedBy: "haul daemon (pid ").last.flatMap { Int32($0.prefix { $0.isNumber }) })
        kill(pid, SIGKILL)
        try await waitUntil { logText().components(separatedBy: "Listening on 127").count >= 5 }
        result = try await haul(["ls"], env: commandEnvironment)
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitUntil(timeout: 60) { self.sameFile(self.www + "/big.bin", self.downloads + "/big.bin") }
        _ = FileManager.default.createFile(atPath: dir.path + "/stop", contents: nil)
    }

    /// Under systemd, standard error is the journal: each line carries its priority.
    func testLinesCarryJournalPrioritiesWhenStandardErrorIsTheJournal() async throws {
        let log = dir.path + "/journal.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var info = stat()
        XCTAssertEqual(stat(log, &info), 0)
        let add = try await haul("add", nginx.url("missing.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let daemon = try spawnHaul(
            ["daemon", "--exit-when-idle"], log: log, env: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"])
        children.append(daemon)
        _ = await daemon.wait(timeout: 60)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(text.contains("<6>haul daemon (pid"), text)
        XCTAssertTrue(text.contains("<4>") && text.contains("failed missing.bin"), text)
    }
}
