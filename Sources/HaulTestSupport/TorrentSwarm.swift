import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A BitTorrent swarm on loopback made of programs nobody here wrote: Debian's `opentracker`,
/// `aria2c` and `transmission-cli` as seeders and leechers, torrents made with `mktorrent`. Nothing
/// leaves 127.0.0.1: DHT, peer exchange, local discovery and port mapping are off in every peer.
public actor TorrentSwarm {
    public nonisolated let directory: String
    public nonisolated let trackerPort: Int
    /// The tracker's port, held until the tracker starts: the torrents announce to it before then.
    private let trackerReservation: FreePort.Reservation
    public nonisolated var announce: String { "http://127.0.0.1:\(trackerPort)/announce" }
    private var peers: [ChildProcess] = []
    /// The seeders and leechers by their peer port, to stop one.
    private var byPort: [Int: ChildProcess] = [:]

    /// A folder for the swarm's files; the tracker starts with ``startTracker(allowing:)``.
    public init(directory: String) {
        self.directory = directory
        trackerReservation = FreePort.Reservation()
        trackerPort = trackerReservation.port
    }

    /// Stops the peer listening on `port`.
    public func stopPeer(_ port: Int) async {
        await byPort.removeValue(forKey: port)?.terminate()
    }

    /// Stops every peer and the tracker.
    public func stop() async {
        for peer in peers { await peer.terminate() }
        peers.removeAll()
    }

    /// A torrent of `path` (a file or a folder) announced to this swarm's tracker, written to
    /// `output`; returns its info hash.
    @discardableResult
    public func makeTorrent(
        of path: String, to output: String, pieceLength exponent: Int = 16, webSeed: String? = nil,
        announce: String? = nil
    ) async throws -> String {
        var arguments = ["-a", announce ?? self.announce, "-l", "\(exponent)", "-o", output]
        if let webSeed { arguments += ["-w", webSeed] }
        let made = try await ChildProcess.run(
            "/usr/bin/mktorrent", arguments + [path], environment: ProcessInfo.processInfo.environment,
            in: directory)
        guard made.status == 0 else { throw ChildProcess.SpawnError(description: "mktorrent: \(made.stderr)") }
        return try await Self.infoHash(of: output)
    }

    /// The v1 info hash of a torrent file, as `transmission-show` reads it.
    public static func infoHash(of torrent: String) async throws -> String {
        let shown = try await ChildProcess.run(
            "/usr/bin/transmission-show", [torrent], environment: ProcessInfo.processInfo.environment, in: "/tmp")
        guard let line = shown.stdout.split(separator: "\n").first(where: { $0.contains("Hash:") }) else {
            throw ChildProcess.SpawnError(description: "transmission-show: \(shown.stderr)")
        }
        return String(line.split(separator: " ").last ?? "")
    }

    /// Starts `opentracker` on loopback serving only `infoHashes` (its access list, by absolute path).
    public func startTracker(allowing infoHashes: [String]) async throws {
        let list = directory + "/tracker-whitelist"
        try (infoHashes.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let log = directory + "/tracker.log"
        trackerReservation.release()
        // TCP only: the tests announce over http, and a UDP port of the same number may be taken.
        peers.append(
            try ChildProcess(
                "/usr/bin/opentracker", ["-i", "127.0.0.1", "-p", "\(trackerPort)", "-w", list],
                environment: [:], stdout: log, stderr: log))
        try await Self.waitForPort(trackerPort, what: "opentracker")
    }

    /// `aria2c` seeding `torrent` from the files in `data`; returns its peer port.
    @discardableResult
    /// `verify: false` seeds whatever the files hold, unchecked (a seeder of corrupted data).
    public func seedWithAria2(_ torrent: String, data: String, uploadLimit: String? = nil, verify: Bool = true)
        async throws -> Int
    {
        let port = FreePort.find()
        var arguments = [
            "--enable-dht=false", "--enable-dht6=false", "--bt-enable-lpd=false", "--enable-peer-exchange=false",
            "--seed-ratio=0.0", "--check-integrity=\(verify)", "--bt-seed-unverified=\(!verify)",
            "--listen-port=\(port)",
            "--dir=\(data)", "--console-log-level=warn", "--summary-interval=0", "--no-conf=true",
            "--bt-external-ip=127.0.0.1",
        ]
        if let uploadLimit { arguments.append("--max-upload-limit=\(uploadLimit)") }
        let log = directory + "/aria2c-\(port).log"
        let peer = try ChildProcess(
            "/usr/bin/aria2c", arguments + [torrent], environment: ProcessInfo.processInfo.environment,
            stdout: log, stderr: log)
        peers.append(peer)
        byPort[port] = peer
        try await Self.waitForPort(port, what: "aria2c")
        return port
    }

    /// `transmission-cli` with its own settings (no DHT, PEX, local discovery or port mapping,
    /// bound to 127.0.0.1) on `torrent`, its data in `data`: a seeder when the files are there, a
    /// leecher when they are not. Returns its peer port.
    @discardableResult
    public func runTransmission(_ torrent: String, data: String) async throws -> Int {
        let port = FreePort.find()
        let config = directory + "/transmission-\(port)"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let settings = """
            {"dht-enabled": false, "lpd-enabled": false, "pex-enabled": false, "port-forwarding-enabled": false,
             "utp-enabled": false, "bind-address-ipv4": "127.0.0.1", "bind-address-ipv6": "::1",
             "peer-port": \(port), "ratio-limit-enabled": false, "idle-seeding-limit-enabled": false,
             "blocklist-enabled": false, "encryption": 1, "message-level": 1}
            """
        try settings.write(toFile: config + "/settings.json", atomically: true, encoding: .utf8)
        let log = directory + "/transmission-\(port).log"
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = config
        let peer = try ChildProcess(
            "/usr/bin/transmission-cli", ["-g", config, "-w", data, "-p", "\(port)", "-M", torrent],
            environment: environment, stdout: log, stderr: log)
        peers.append(peer)
        byPort[port] = peer
        return port
    }

    /// Waits until the tracker counts `count` seeders of `infoHash` (a seeder announces once it
    /// has checked its files; a leecher that asked before then would wait for the next round).
    public func waitForSeeders(_ count: Int, of infoHash: String, timeout: Double = 60) async throws {
        try await waitForPeers(count, of: infoHash, counted: "complete", timeout: timeout)
    }

    /// Waits until the tracker counts `count` leechers of `infoHash`.
    public func waitForLeechers(_ count: Int, of infoHash: String, timeout: Double = 60) async throws {
        try await waitForPeers(count, of: infoHash, counted: "incomplete", timeout: timeout)
    }

    private func waitForPeers(_ count: Int, of infoHash: String, counted key: String, timeout: Double) async throws {
        var escaped = ""
        var index = infoHash.startIndex
        while index < infoHash.endIndex {
            let next = infoHash.index(index, offsetBy: 2)
            escaped += "%" + infoHash[index..<next]
            index = next
        }
        let url = "http://127.0.0.1:\(trackerPort)/scrape?info_hash=\(escaped)"
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // The answer holds the hash's raw bytes: only its printable part is read.
            let scraped = try await ChildProcess.run(
                "/bin/sh", ["-c", "/usr/bin/curl -s \"$0\" | tr -c '[:print:]' '.'", url],
                environment: ProcessInfo.processInfo.environment, in: directory)
            let pattern = "\(key.count):\(key)i(\\d+)e"
            if let range = scraped.stdout.range(of: pattern, options: .regularExpression) {
                let digits = scraped.stdout[range].dropFirst("\(key.count):\(key)i".count).dropLast()
                if let seen = Int(digits), seen >= count { return }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ChildProcess.SpawnError(description: "the tracker never counted \(count) \(key) peers of \(infoHash)")
    }

    private static func waitForPort(_ port: Int, what: String) async throws {
        for _ in 0..<500 {
            if FreePort.isListening(port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcess.SpawnError(description: "\(what) did not listen on \(port)")
    }
}
