import Foundation
import HaulLoopback
import HaulTestSupport
import XCTest

/// The real `haul` TUI in a real terminal (tmux), against nginx on loopback.
final class TUITests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var sessions: [TmuxSession] = []

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "300k", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        sessions = []
        await nginx?.stop()
        try await super.tearDown()
    }

    /// Opens haul in a shell inside tmux; after haul exits, the shell reports its exit code
    /// and whether the tty is back in canonical mode with echo.
    /// `assignments`: shell variable assignments for haul itself (`TERM=xterm-256color`): the
    /// pane's shell sets its own TERM and PATH, whatever the session's environment says.
    func openTUI(
        width: Int = 100, height: Int = 30, name: String = "tui", extraEnvironment: [String: String] = [:],
        assignments: String = "", arguments: String = ""
    ) async throws -> TmuxSession {
        let script =
            (assignments.isEmpty ? "" : assignments + " ")
            + "'\(HaulBinary.path)'\(arguments.isEmpty ? "" : " " + arguments); echo \"EXIT=$?\"; "
            + "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600"
        let session = try await TmuxSession(
            command: script, width: width, height: height,
            environment: environment(["TERM": "xterm-256color"].merging(extraEnvironment) { $1 }),
            workDirectory: dir.subdirectory(name)
        )
        sessions.append(session)
        try await session.waitFor { $0.contains("metered:") && $0.contains("q Quit") }
        return session
    }

    func stateOfFirstDownload() -> String? {
        guard let data = FileManager.default.contents(atPath: statePath),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let downloads = root["downloads"] as? [[String: Any]]
        else { return nil }
        return downloads.first?["state"] as? String
    }

    /// The percentage on the first line that names `name` and shows one (a typed command line
    /// that names the file, or its wrapped tail, shows none).
    static func percent(in screen: String, row name: String) -> Int? {
        for line in screen.split(separator: "\n") where line.contains(name) {
            if let range = line.range(of: #"\d+%"#, options: .regularExpression) {
                return Int(line[range].dropLast())
            }
        }
        return nil
    }

    func testASegmentedDownloadShowsItsConnectionsAndTheMapOfItsFile() async throws {
        try TestFiles.random(www + "/pieces.bin", size: 16 << 20)
        let added = try await haul("add", nginx.url("slow/pieces.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        let tui = try await openTUI()
        // The row says how many connections fetch it.
        let running = try await tui.waitFor(timeout: 20) { screen in
            screen.split(separator: "\n").contains { $0.contains("pieces.bin") && $0.contains("down ×") }
        }
        let row = try XCTUnwrap(running.split(separator: "\n").first { $0.contains("pieces.bin") })
        let count = Int(row.split(separator: "×").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        XCTAssertGreaterThanOrEqual(count, 2, String(row))

        // The details: the connections, a map of the file, and each connection's piece.
        try await tui.send("Enter")
        let details = try await tui.waitFor { $0.contains("Connections") && $0.contains("Map") }
        let map = try XCTUnwrap(details.split(separator: "\n").first { $0.contains("Map") })
        XCTAssertTrue(map.contains("▒") || map.contains("█"), String(map))
        XCTAssertTrue(map.contains("░") || map.contains("▒"), "not all done yet: \(map)")
        XCTAssertTrue(details.contains("Pieces"), details)
        XCTAssertTrue(details.contains("done, "), details)

        // x opens the row: the map and each connection's speed under it, without leaving the list.
        try await tui.send("Escape")
        try await tui.send("x")
        let opened = try await tui.waitFor { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("    connections  ") && $0.contains("iB/s") }
        }
        let lines = opened.split(separator: "\n").map(String.init)
        let rowIndex = try XCTUnwrap(lines.firstIndex { $0.contains("pieces.bin") })
        XCTAssertTrue(lines[rowIndex].hasPrefix("▼ pieces.bin"), lines[rowIndex])
        XCTAssertTrue(lines[rowIndex + 1].hasPrefix("    pieces       "), opened)
        XCTAssertTrue(lines[rowIndex + 1].contains("done"), opened)
        XCTAssertTrue(lines[rowIndex + 3].hasPrefix("    last notice  "), opened)
        try await tui.send("x")
        try await tui.waitFor { !$0.contains("    last notice  ") }

        // -: one connection fewer for this download, said on the status line and kept.
        try await tui.send("-")
        try await tui.waitFor { $0.contains("pieces.bin: at most 7 connections") }
        try await waitUntil { self.firstDownload()?["connections"] as? Int == 7 }
        try await tui.waitFor(timeout: 10) { screen in
            screen.split(separator: "\n").contains {
                $0.contains("pieces.bin") && ($0.contains("down ×7") || $0.contains("done"))
            }
        }
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
    }

    /// b sets the global limit (the one `haul limit` shows), l the selected download's, T and
    /// K move it in the queue, and a sorted list says why it cannot.
    func testSpeedLimitKeysAndQueueMovesInTheTUI() async throws {
        for name in ["one", "two", "three"] {
            try TestFiles.random(www + "/\(name).bin", size: 200_000)
            _ = try await haul("add", "--paused", "-o", "\(name).bin", nginx.url("\(name).bin"))
        }
        let tui = try await openTUI()
        try await tui.send("b")
        try await tui.waitFor { $0.contains("speed limit for all") }
        try await tui.send("2M 08:00-23:00", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("speed limit: 2.0 MiB/s during 08:00-23:00") }
        let shown = try await haul("limit")
        XCTAssertTrue(shown.stdout.hasPrefix("speed limit: 2.0 MiB/s during 08:00-23:00"), shown.stdout)

        // The last row to the top: the list (and the queue) start with it.
        try await tui.send("G")
        try await tui.send("T")
        try await tui.waitFor { $0.contains("three.bin: moved to the top") }
        var order = try await listJSON().map { $0["url"] as! String }
        XCTAssertTrue(order.first?.hasSuffix("/three.bin") == true, "\(order)")
        let screen = try await tui.waitFor { screen in
            let rows = screen.split(separator: "\n")
            guard let three = rows.firstIndex(where: { $0.contains("three.bin") }),
                let one = rows.firstIndex(where: { $0.contains("one.bin") })
            else { return false }
            return three < one
        }
        XCTAssertTrue(screen.contains("▶ three.bin"), "the selection follows the moved download:\n\(screen)")
        try await tui.send("J")
        try await tui.waitFor { $0.contains("three.bin: moved down") }
        order = try await listJSON().map { $0["url"] as! String }
        XCTAssertTrue(order[1].hasSuffix("/three.bin"), "\(order)")

        try await tui.send("g")
        try await tui.send("K")
        try await tui.waitFor { $0.contains("one.bin is already at the top of the queue") }
        try await tui.send("j")
        try await tui.send("l")
        try await tui.waitFor { $0.contains("speed limit for three.bin") }
        try await tui.send("500K", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("≤500 KiB/s") }
        try await waitUntil {
            let three = (try? self.statePathDownloads())?.first { $0["requestedName"] as? String == "three.bin" }
            return three?["speedLimit"] as? Int == 512_000
        }

        try await tui.send("s")
        try await tui.send("K")
        try await tui.waitFor { $0.contains("the list is sorted by name; press s until it shows the queue") }
        try await tui.send("?")
        try await tui.waitFor { $0.contains("move the selected download up / down the queue") }
        try await tui.send("Escape")
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
    }

    func testAnExpiredLinkIsOfferedANewOneInItsRowAndUGivesIt() async throws {
        let file = (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let server = try FaultServer { request, _ in
            if request.path.hasPrefix("/expired") { return [.send(FaultServer.head(403, [("Content-Length", "0")]))] }
            return FaultServer.serve(file, for: request)
        }
        defer { server.stop() }
        _ = try await haul("add", "-o", "video.mp4", server.url("expired/video.mp4?sig=1"))
        let tui = try await openTUI()
        try await tui.waitFor { $0.contains("video.mp4") && $0.contains("u: new link") }
        try await tui.send("u")
        try await tui.waitFor { $0.contains("new link for video.mp4") }
        try await tui.send(server.url("fresh/video.mp4?sig=2"), literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("video.mp4") && $0.contains("done") }
        XCTAssertEqual(TestFiles.contents(downloads + "/video.mp4").map(Array.init), file)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("Came from") && $0.contains("expired/video.mp4") }
        try await tui.send("Escape")
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
    }

    func testOOpensTheFinishedFileWithXdgOpenAndTheGraphMovesOnlyWhileDownloading() async throws {
        // A name with spaces, quotes and a command substitution: it must arrive as one argument.
        let name = "my \"file\" $(touch pwned) 'x'.bin"
        try TestFiles.random(www + "/plain.bin", size: 300_000)
        try TestFiles.random(www + "/slow.bin", size: 3_000_000)
        let bin = dir.subdirectory("fakebin")
        let record = dir.path + "/opened.txt"
        try "#!/bin/sh\nprintf '%s\\n' \"$#\" \"$1\" >> '\(record)'\n".write(
            toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        let tui = try await openTUI(assignments: "PATH='\(bin)':\"$PATH\"")
        // Idle: the header's graph is a flat line.
        try await tui.waitFor { $0.split(separator: "\n").first?.contains("▁▁") == true }
        let idle = try await tui.capture()
        XCTAssertFalse(idle.split(separator: "\n")[0].contains("█"), idle)

        _ = try await haul("add", "-o", name, nginx.url("plain.bin"))
        try await tui.waitFor { $0.contains("done") }
        try await tui.send("o")
        try await waitUntil { (try? String(contentsOfFile: record, encoding: .utf8)) != nil }
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(
            try String(contentsOfFile: record, encoding: .utf8), "1\n\(downloads)/\(name)\n",
            "one argument, the exact path")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/tui/pwned"), "no shell ran the name")
        try await tui.send("O")
        try await waitUntil {
            ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").hasSuffix("1\n\(downloads)\n")
        }

        // Running: the graph moves. Its own limit keeps it running for seconds, whatever the
        // server lets through at first, so a once-a-second sample always sees it moving.
        _ = try await haul("add", "--limit", "200K", nginx.url("slow/slow.bin"))
        try await tui.waitFor { $0.split(separator: "\n").first?.contains("█") == true }
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
    }

    /// In monochrome (`NO_COLOR`), as the mouse needs no colour.
    func testAMouseClickSelectsTheRowAimedAtAndTheWheelScrolls() async throws {
        for i in 0..<40 { _ = try await haul("add", "--paused", "-o", "f\(i).bin", nginx.url("f\(i).bin")) }
        // As in xterm: haul asks for SGR mouse reports (ESC [ < button ; column ; row M, 1-based).
        let tui = try await openTUI(width: 100, height: 20, assignments: "TERM=xterm-256color NO_COLOR=1")
        try await tui.waitFor { $0.contains("f0.bin") }
        let modes = try await tui.mouseModes()
        XCTAssertTrue(modes.any && modes.sgr, "haul asked for SGR mouse reports: \(modes)")
        try await tui.send("\u{1B}[<0;10;6M\u{1B}[<0;10;6m", literal: true)
        var screen = try await tui.waitFor { $0.contains("▶ f3.bin") }
        for _ in 0..<5 { try await tui.send("\u{1B}[<65;10;6M", literal: true) }
        screen = try await tui.waitFor { $0.contains("▶ f18.bin") }
        XCTAssertFalse(screen.contains(" f0.bin"), "the wheel scrolled the list:\n\(screen)")
        // A double click opens the details of the row under it.
        try await tui.send("\u{1B}[<0;10;4M\u{1B}[<0;10;4m\u{1B}[<0;10;4M\u{1B}[<0;10;4m", literal: true)
        try await tui.waitFor { $0.contains("Details") }
        try await tui.send("Escape")
        // A click on a row's marker (its first column) opens it; another closes it.
        try await tui.send("\u{1B}[<0;1;4M\u{1B}[<0;1;4m", literal: true)
        screen = try await tui.waitFor { $0.contains("    last notice  none") }
        let rows = screen.split(separator: "\n").map(String.init)
        XCTAssertTrue(rows[3].hasPrefix("▼ f"), "the row clicked is opened:\n\(screen)")
        XCTAssertTrue(rows[4].hasPrefix("    pieces       one piece"), screen)
        XCTAssertTrue(screen.contains("    connections  none running"), screen)
        try await tui.send("\u{1B}[<0;1;4M\u{1B}[<0;1;4m", literal: true)
        try await tui.waitFor { !$0.contains("    last notice  ") }
        // Help is longer than 20 rows: it scrolls, with the wheel too, and says what is below.
        try await tui.send("?")
        try await tui.waitFor { $0.contains("Keys") && $0.contains("more ┘") }
        for _ in 0..<12 { try await tui.send("\u{1B}[<65;50;10M", literal: true) }
        try await tui.waitFor { $0.contains("quit; asks whether") && $0.contains("↑") }
        try await tui.send("Escape")
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
        let after = try await tui.mouseModes()
        XCTAssertFalse(after.any || after.sgr, "the shell gets no mouse reports after haul: \(after)")
    }

    /// With a locale that is not UTF-8 the screen is plain ASCII, a CJK name included.
    func testOutsideUTF8TheScreenIsASCII() async throws {
        _ = try await haul("add", "--paused", "-o", "日本語.bin", nginx.url("cjk.bin"))
        let tui = try await openTUI(name: "ascii", assignments: "LANG=C LC_ALL=C TERM=xterm-256color")
        try await tui.send("x")
        let screen = try await tui.waitFor { $0.contains("last notice") }
        XCTAssertTrue(screen.utf8.allSatisfy { $0 == 0x0A || ($0 >= 0x20 && $0 < 0x7F) }, screen)
        XCTAssertTrue(screen.contains("v ??????.bin"), screen)
        XCTAssertTrue(screen.contains("sort: queue - 1 of 1 shown"), screen)
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=0") }
    }

    /// `--no-mouse` and `HAUL_NO_MOUSE=1` leave clicks and the wheel to the terminal.
    func testNoMouseLeavesTheMouseToTheTerminal() async throws {
        for (assignments, arguments) in [
            ("TERM=xterm-256color", "--no-mouse"), ("TERM=xterm-256color HAUL_NO_MOUSE=1", ""),
        ] {
            let tui = try await openTUI(name: "no-mouse\(arguments)", assignments: assignments, arguments: arguments)
            let modes = try await tui.mouseModes()
            XCTAssertFalse(modes.any || modes.sgr, "\(assignments) \(arguments): \(modes)")
            try await tui.send("C-c")
            try await tui.waitFor { $0.contains("EXIT=0") }
        }
    }

    func testTheCommandLineRunsTheCLIsCommandsOnTheSelectedDownload() async throws {
        for name in ["one", "two", "three"] {
            _ = try await haul("add", "--paused", "-o", "\(name).bin", nginx.url("\(name).bin"))
        }
        let tui = try await openTUI()
        try await tui.send(":")
        try await tui.send("limit 2M", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("speed limit: 2.0 MiB/s") }
        let shown = try await haul("limit")
        XCTAssertTrue(shown.stdout.hasPrefix("speed limit: 2.0 MiB/s"), shown.stdout)

        try await tui.send("G")
        try await tui.send(":")
        try await tui.send("mo", literal: true)
        try await tui.send("Tab")
        try await tui.send("top", literal: true)
        try await tui.send("Enter")
        try await waitUntil {
            ((try? self.statePathDownloads()) ?? []).first?["requestedName"] as? String == "three.bin"
        }
        try await tui.send(":")
        try await tui.send("limit fast", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { $0.contains("haul: 'fast' is not a speed; try 500K, 8M or none") }
        try await tui.send(":")
        try await tui.send("Up")
        try await tui.waitFor { $0.contains(":limit fast") }
        try await tui.send("Escape")
        try await tui.send("v")
        try await tui.waitFor { $0.contains("Log") && $0.contains("speed limit: 2.0 MiB/s") }
        try await tui.send("Escape")
        try await tui.send("C-c")
        try await tui.waitFor { $0.contains("EXIT=") }
    }

    func statePathDownloads() throws -> [[String: Any]] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: statePath))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return root["downloads"] as? [[String: Any]] ?? []
    }

    func firstDownload() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: statePath),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return (root["downloads"] as? [[String: Any]])?.first
    }

    func testAddWatchPauseResumeCancelResizeQuitAndRestart() async throws {
        try TestFiles.random(www + "/big.bin", size: 1_500_000)
        try TestFiles.random(www + "/other.bin", size: 3_000_000)
        // A new user has no download folder yet: the dialog makes it, as `haul add` does.
        try FileManager.default.removeItem(atPath: downloads)
        let tui = try await openTUI()

        // a: add a URL through the dialog.
        try await tui.send("a")
        try await tui.waitFor { $0.contains("Add a download") }
        try await tui.send(nginx.url("slow/big.bin"), literal: true)
        try await tui.send("Enter")
        let first = try await tui.waitFor { (Self.percent(in: $0, row: "big.bin") ?? 0) > 0 }
        let p1 = try XCTUnwrap(Self.percent(in: first, row: "big.bin"))
        let later = try await tui.waitFor { (Self.percent(in: $0, row: "big.bin") ?? 0) > p1 }
        XCTAssertTrue(later.contains("downloading"), later)

        // p: pause; the state file says so.
        try await tui.send("p")
        try await tui.waitFor { $0.contains("by user") && $0.contains("paused") }
        try await waitUntil { self.stateOfFirstDownload() == "paused" }

        // p again: resumes and finishes byte-identical.
        try await tui.send("p")
        try await tui.waitFor(timeout: 30) {
            $0.split(separator: "\n").contains { $0.contains("big.bin") && $0.contains("done") }
        }
        XCTAssertTrue(sameFile(downloads + "/big.bin", www + "/big.bin"))

        // c: cancel asks, then removes the .part.
        try await tui.send("a")
        try await tui.waitFor { $0.contains("Add a download") }
        try await tui.send(nginx.url("slow/other.bin"), literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { (Self.percent(in: $0, row: "other.bin") ?? 0) > 0 }
        XCTAssertTrue(FileManager.default.fileExists(atPath: downloads + "/other.bin.part"))
        try await tui.send("G")
        try await tui.send("c")
        try await tui.waitFor { $0.contains("Cancel other.bin and delete its partial data? [y/N]") }
        try await tui.send("y")
        try await tui.waitFor {
            $0.split(separator: "\n").contains { $0.contains("other.bin") && $0.contains("cancelled") }
        }
        try await waitUntil { !FileManager.default.fileExists(atPath: self.downloads + "/other.bin.part") }

        // Resizes redraw at once and adapt the columns.
        try await tui.resize(width: 80, height: 24)
        let small = try await tui.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 24 && screen.contains("q Quit") && !screen.contains("SIZE")
        }
        XCTAssertTrue(small.contains("big.bin"), small)
        try await tui.resize(width: 160, height: 50)
        let large = try await tui.waitFor { $0.contains("SIZE") && $0.contains("q Quit") }
        XCTAssertTrue(large.contains("other.bin"), large)

        // q: quits, state saved, terminal restored.
        try await tui.send("q")
        let after = try await tui.waitFor { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(after.contains("EXIT=0"), after)
        XCTAssertTrue(after.contains("icanon echo"), "the tty is back in canonical mode with echo: \(after)")
        XCTAssertFalse(after.contains("metered:"), "the alternate screen is gone")

        // A restart shows the same list.
        let again = try await openTUI(name: "tui2")
        let screen = try await again.waitFor { $0.contains("big.bin") && $0.contains("other.bin") }
        XCTAssertTrue(screen.contains("done"), screen)
        XCTAssertTrue(screen.contains("cancelled"), screen)
        try await again.send("q")
        try await again.waitFor { $0.contains("EXIT=0") }
    }

    /// `HAUL_TRACE` (the benchmark's): one line of fields; the slowest frames by wall and by CPU
    /// time say what they did, the keys before them, and the UI thread's page faults.
    func testTheFrameTraceSaysWhatItsSlowestFramesDid() async throws {
        try TestFiles.random(www + "/a.bin", size: 1000)
        _ = try await haul("add", nginx.url("a.bin"))
        let trace = dir.path + "/trace.txt"
        let tui = try await openTUI(extraEnvironment: ["HAUL_TRACE": trace])
        try await tui.waitFor { $0.contains("a.bin") }
        try await tui.send("s")
        try await tui.send("j")
        try await tui.waitFor { $0.contains("sort:") || $0.contains("a.bin") }
        try await tui.send("C-c")
        _ = try await tui.waitFor { $0.contains("EXIT=") }
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, text)
        let fields = Dictionary(
            text.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, String)? in
                guard let eq = field.firstIndex(of: "=") else { return nil }
                return (String(field[..<eq]), String(field[field.index(after: eq)...]))
            }
        ) { $1 }
        XCTAssertGreaterThan(Int(fields["frames"] ?? "") ?? 0, 0, text)
        for key in ["slowest", "slowest_cpu"] {
            let note = try XCTUnwrap(fields[key], text)
            XCTAssertNotNil(
                note.range(
                    of:
                        #"rows=\d+.*,keys=\d+(\([^ ,()]+\))?"#
                        + #",events=\d+,cpu_ms=[\d.]+,steal_ms=[\d.]+,faults=\d+,waits=\d+,preemptions=\d+$"#,
                    options: .regularExpression), note)
        }
    }

    func testSignalsAndCtrlCRestoreTheTerminal() async throws {
        try TestFiles.random(www + "/big.bin", size: 3_000_000)
        _ = try await haul("add", nginx.url("slow/big.bin"))
        let tui = try await openTUI()
        try await tui.waitFor { (Self.percent(in: $0, row: "big.bin") ?? 0) > 0 }
        try await tui.send("C-c")
        let afterCtrlC = try await tui.waitFor { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(afterCtrlC.contains("EXIT=0") && afterCtrlC.contains("icanon echo"), afterCtrlC)
        XCTAssertEqual(stateOfFirstDownload(), "waiting", "a running download is saved to resume next time")

        for signal in [SIGTERM, SIGHUP, SIGSEGV] {
            let again = try await openTUI(name: "tui-\(signal)")
            let lock = try String(contentsOfFile: statePath + ".lock", encoding: .utf8)
            let pid = try XCTUnwrap(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(pid, signal)
            let after = try await again.waitFor { $0.contains("EXIT=") && $0.contains("icanon") }
            XCTAssertTrue(after.contains("icanon echo"), "signal \(signal): \(after)")
            XCTAssertFalse(after.contains("metered:"), "signal \(signal): \(after)")
            let modes = try await again.mouseModes()
            XCTAssertFalse(modes.any || modes.sgr, "signal \(signal): mouse reports still on: \(modes)")
        }
    }
}
