import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import XCTest

@testable import haul

/// `haul URL…`: which words name it, and when the downloads it follows are done.
final class DirectDownloadValuesTests: XCTestCase {
    func testAURLAfterTheRootsOptionsNamesGetAndACommandsNameStays() {
        let url = "https://example.org/a.iso"
        XCTAssertEqual(GetCommand.arguments([url]), ["get", url])
        XCTAssertEqual(
            GetCommand.arguments(["--state", "/s.json", "--on-complete", "notify", url, "http://b/c"]),
            ["--state", "/s.json", "--on-complete", "notify", "get", url, "http://b/c"])
        XCTAssertEqual(GetCommand.arguments(["--no-mouse", url]), ["--no-mouse", "get", url])
        XCTAssertEqual(GetCommand.arguments(["-q", url]), ["get", "-q", url], "-q is get's, as wget -q URL")
        XCTAssertEqual(GetCommand.arguments(["--quiet", "-o", "x", url]), ["get", "--quiet", "-o", "x", url])
        XCTAssertEqual(GetCommand.arguments(["-c", url]), ["get", "-c", url], "wget's and aria2c's -c")
        XCTAssertNoThrow(try GetCommand.parse(["-c", url]))
        XCTAssertEqual(GetCommand.arguments(["-O", "x", url]), ["get", "-O", "x", url], "wget's -O")
        XCTAssertEqual(GetCommand.arguments(["-P", "isos", url]), ["get", "-P", "isos", url], "wget's -P")
        // An option neither has, before a URL: `get` says it does not know it, with its own usage.
        XCTAssertEqual(GetCommand.arguments(["-N", "x", url]), ["get", "-N", "x", url])
        XCTAssertEqual(GetCommand.arguments(["--bogus", "ls"]), ["--bogus", "ls"])
        XCTAssertEqual(GetCommand.arguments(["--bogus"]), ["--bogus"])
        XCTAssertEqual(GetCommand.arguments(["--state", "/s.json", "ls"]), ["--state", "/s.json", "ls"])
        XCTAssertEqual(GetCommand.arguments(["add", url]), ["add", url], "a command's own URL stays its")
        XCTAssertEqual(GetCommand.arguments([]), [])
        XCTAssertEqual(GetCommand.arguments(["--", url]), ["--", url])
    }

    func testATorrentOrMetalinkNameOrAFileThatExistsNamesGet() throws {
        XCTAssertEqual(GetCommand.arguments(["a.torrent"]), ["get", "a.torrent"])
        XCTAssertEqual(GetCommand.arguments(["files.meta4"]), ["get", "files.meta4"])
        XCTAssertEqual(GetCommand.arguments(["files.metalink"]), ["get", "files.metalink"])
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("haul-get-\(UUID().uuidString).txt")
        try "http://h/a\n".write(to: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: list) }
        XCTAssertEqual(GetCommand.arguments([list.path]), ["get", list.path], "get says what it makes of it")
        XCTAssertEqual(GetCommand.arguments(["/no/such/list.txt"]), ["/no/such/list.txt"])
        XCTAssertEqual(GetCommand.arguments(["ls"]), ["ls"], "a command's name has no dot or slash")
    }

    func testAnOptionOfAddsBeforeTheURLNamesGetAtTheFront() {
        let url = "https://example.org/a.iso"
        XCTAssertEqual(GetCommand.arguments(["-o", "b.iso", url]), ["get", "-o", "b.iso", url])
        XCTAssertEqual(
            GetCommand.arguments(["--state", "/s.json", "-x", "4", "-d", "isos", url]),
            ["get", "--state", "/s.json", "-x", "4", "-d", "isos", url])
        XCTAssertEqual(GetCommand.arguments(["-i", "list.txt"]), ["get", "-i", "list.txt"], "a list alone")
        XCTAssertEqual(GetCommand.arguments(["--limit=1M", url]), ["get", "--limit=1M", url])
        XCTAssertEqual(GetCommand.arguments(["--allow-metered", url]), ["get", "--allow-metered", url])
        XCTAssertEqual(GetCommand.arguments([url, "-o", "b.iso"]), ["get", url, "-o", "b.iso"])
        XCTAssertEqual(GetCommand.arguments(["-j", "8", "--", url]), ["-j", "8", "--", url], "-- ends the options")
    }

    /// Every option `get` takes with a value, as its help names it, is in the table the words
    /// before a URL are read by; every name in the table is one `get` takes.
    func testTheTableOfOptionsWithValuesIsGetsOwn() throws {
        var named = Set<String>()
        for line in GetCommand.helpMessage(columns: 200).split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let value = words.firstIndex(where: { $0.hasPrefix("<") }), words.first?.hasPrefix("-") == true
            else { continue }
            for word in words[..<value] { named.insert(word.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
        }
        XCTAssertFalse(named.isEmpty)
        XCTAssertEqual(
            named,
            GetCommand.ownOptionsWithValues.union(GetCommand.rootOptionsWithValues)
                .subtracting(DownloadOptions.hiddenNamesWithValues).subtracting(QuietOption.hiddenNamesWithValues))
        for name in DownloadOptions.hiddenNamesWithValues {
            XCTAssertEqual(GetCommand.arguments([name + "=true", "http://h/a"]).first, "get", name)
        }
        for flag in DownloadOptions.flagNames.subtracting(DownloadOptions.refusedFlagNames) {
            XCTAssertNoThrow(try GetCommand.parse([flag, "http://h/a"]), flag)
        }
        for flag in DownloadOptions.refusedFlagNames {
            XCTAssertEqual(GetCommand.arguments([flag, "https://h/a"]), ["get", flag, "https://h/a"])
            XCTAssertThrowsError(try GetCommand.parse([flag, "https://h/a"]), flag)
        }
    }

    /// `haul URL…` reads add's options into the same requests `haul add` makes, in the current
    /// curl's `-C -` (haul always resumes), and its `-O` followed by another option: a flag that
    /// names the file by its URL, as haul names it anyway.
    func testCurlsContinueAtAndARemoteNameBeforeAnotherOption() throws {
        let url = "http://h/a.iso"
        for words in [
            ["-L", "-O", "-C", "-", url], ["-LO", "-C", "-", url], ["-O", "-L", url], ["-C", "-", "-O", url],
        ] {
            let rewritten = GetCommand.arguments(words)
            XCTAssertEqual(rewritten.first, "get", "\(words)")
            let get = try GetCommand.parse(Array(rewritten.dropFirst()))
            XCTAssertEqual(get.urls, [url], "\(words)")
            XCTAssertNil(get.download.output, "\(words)")
        }
        XCTAssertEqual(
            GetCommand.arguments(["-O", "-", url]), ["get", "-O", "-", url], "wget's stdout, refused later")
        XCTAssertEqual(GetCommand.arguments(["-O", "b.iso", url]), ["get", "-O", "b.iso", url])
        XCTAssertThrowsError(try GetCommand.parse(["-C", "100", url]), "an offset: haul resumes from its .part")
    }

    /// wget's `-T` sets the stall and the connection timeouts; `--connect-timeout` the second.
    func testTimeoutsReachTheEnginesConfiguration() throws {
        var configuration = EngineConfiguration(statePath: "/tmp/state.json")
        CommandTimeouts(timeout: 5, connectTimeout: nil).apply(to: &configuration)
        XCTAssertEqual([configuration.stallTimeout, configuration.connectTimeout], [.seconds(5), .seconds(5)])
        CommandTimeouts(timeout: 20, connectTimeout: 3).apply(to: &configuration)
        XCTAssertEqual([configuration.stallTimeout, configuration.connectTimeout], [.seconds(20), .seconds(3)])
        var untouched = EngineConfiguration(statePath: "/tmp/state.json")
        XCTAssertTrue(CommandTimeouts(timeout: nil, connectTimeout: nil).isEmpty)
        CommandTimeouts(timeout: nil, connectTimeout: nil).apply(to: &untouched)
        XCTAssertEqual(untouched.stallTimeout, EngineConfiguration(statePath: "/tmp/state.json").stallTimeout)
        let get = try GetCommand.parse(["-T", "7", "--connect-timeout", "2", "http://h/a.iso"])
        XCTAssertEqual([get.timeout, get.connectTimeout], [7, 2])
        XCTAssertEqual(GetCommand.arguments(["-T", "7", "http://h/a.iso"]).first, "get")
    }

    /// curl's `--retry N` (N more after the first), aria2c's `--all-proxy` and
    /// `--check-certificate`.
    func testCurlsRetryAndAria2csProxyAndCertificateOptions() throws {
        let environment = ["HOME": "/nonexistent"]
        func request(_ words: [String]) throws -> DownloadRequest? {
            let get = try GetCommand.parse(words + ["http://h/a.iso"])
            return try AddPlan.make(urls: get.urls, get.download, environment: environment, defaultDirectory: "/tmp")
                .requests.first
        }
        XCTAssertEqual(try request(["--retry", "3"])?.tries, 4)
        XCTAssertEqual(try request(["--retry", "0"])?.tries, 1, "no retry: the one attempt")
        XCTAssertEqual(
            try request(["--all-proxy", "socks5://127.0.0.1:1080"])?.proxy,
            try request(["--proxy", "socks5://127.0.0.1:1080"])?.proxy)
        XCTAssertNotNil(try request(["--all-proxy", "socks5://127.0.0.1:1080"])?.proxy)
        XCTAssertNoThrow(try GetCommand.parse(["--check-certificate=true", "http://h/a.iso"]))
        for refused in [["--check-certificate=false"], ["--check-certificate=no"], ["--retry", "2", "-t", "3"]] {
            XCTAssertThrowsError(try GetCommand.parse(refused + ["http://h/a.iso"]), "\(refused)")
        }
    }

    /// wget's `-t inf`, `-nc` and `-nv`, and curl's `-H`.
    func testWgetsInfiniteTriesNoClobberAndNoVerboseAndCurlsH() throws {
        func request(_ words: [String]) throws -> DownloadRequest? {
            let get = try GetCommand.parse(words + ["http://h/a.iso"])
            return try AddPlan.make(urls: get.urls, get.download, environment: [:], defaultDirectory: "/tmp")
                .requests.first
        }
        XCTAssertEqual(try request(["-t", "inf"])?.tries, 0, "no limit, as -t 0")
        XCTAssertEqual(try request(["--tries=inf"])?.tries, 0)
        XCTAssertEqual(try request(["-t", "3"])?.tries, 3)
        XCTAssertThrowsError(try GetCommand.parse(["-t", "many", "http://h/a.iso"]))
        XCTAssertEqual(try request(["-H", "X-A: 1"])?.headers.map(\.name), ["X-A"])
        for words in [["-nc"], ["--no-clobber"], ["-nv"], ["--no-verbose"], ["-nc", "-nv", "-q"]] {
            XCTAssertEqual(GetCommand.arguments(words + ["http://h/a.iso"]).first, "get", "\(words)")
        }
        let get = try GetCommand.parse(["-nc", "-nv", "http://h/a.iso"])
        XCTAssertTrue(get.noClobber)
        XCTAssertTrue(get.quietOption.brief)
        XCTAssertFalse(get.quietOption.quiet)
        XCTAssertTrue(try RunCommand.parse(["-nv"]).quietOption.brief, "haul run -nv, too")
        // wget's -q --show-progress: the live lines, nothing else asked to be quiet.
        XCTAssertFalse(try GetCommand.parse(["-q", "--show-progress", "http://h/a.iso"]).quietOption.quiet)
        XCTAssertTrue(try GetCommand.parse(["-q", "http://h/a.iso"]).quietOption.quiet)
        // Progress styles (haul draws its own), curl's -Z and --parallel-max, aria2c's -Z.
        for words in [
            ["--progress=bar:force:noscroll"], ["--progress", "dot"], ["--progress-bar"], ["-Z"],
            ["--parallel", "--parallel-max", "8"], ["--force-sequential"],
        ] {
            XCTAssertEqual(GetCommand.arguments(words + ["http://h/a.iso"]).first, "get", "\(words)")
            XCTAssertNoThrow(try GetCommand.parse(words + ["http://h/a.iso"]), "\(words)")
        }
        XCTAssertEqual(try GetCommand.parse(["--parallel-max", "8", "http://h/a.iso"]).concurrency, 8)
        // What haul does anyway: curl's --compressed, --create-dirs and --output-dir, wget's
        // --content-disposition.
        let curl = ["--compressed", "--create-dirs", "--output-dir", "isos", "--content-disposition"]
        XCTAssertEqual(GetCommand.arguments(curl + ["http://h/a.iso"]).first, "get")
        XCTAssertEqual(try request(curl)?.directory.hasSuffix("/isos"), true)
    }

    /// curl's `-f`, `-s`, `-S`, `-L` and `-O` as scripts write them (`curl -fsSLO URL`); aria2c's
    /// `-s N` stays the split.
    func testCurlsSilentFailAndShowErrorFlagsAsScriptsClusterThem() throws {
        let url = "https://example.org/a.iso"
        XCTAssertEqual(GetCommand.arguments(["-fsSL", url]), ["get", "-q", "-L", url])
        XCTAssertEqual(GetCommand.arguments(["-fsSL", url, "-o", "b.iso"]), ["get", "-q", "-L", url, "-o", "b.iso"])
        XCTAssertEqual(GetCommand.arguments(["-sSLO", url]), ["get", "-q", "-L", "-O", url])
        XCTAssertEqual(GetCommand.arguments(["-s", url]), ["get", "-q", url], "curl's silent")
        XCTAssertEqual(GetCommand.arguments(["-f", "-L", url]), ["get", "-L", url])
        XCTAssertEqual(GetCommand.arguments(["-s", "4", url]), ["get", "-s", "4", url], "aria2c's split")
        XCTAssertEqual(GetCommand.arguments(["-LO", "-fsS", url]), ["get", "-L", "-q", url])
        XCTAssertEqual(GetCommand.arguments(["-q", "--", "-fsSL"]), ["-q", "--", "-fsSL"])
        for words in [["-fsSL", url], ["-fsSLO", url], ["-s", url], ["-sS", "-o", "b.iso", url]] {
            let get = try GetCommand.parse(Array(GetCommand.arguments(words).dropFirst()))
            XCTAssertEqual(get.urls, [url], "\(words)")
            XCTAssertTrue(get.quietOption.quiet, "\(words)")
        }
        XCTAssertEqual(try GetCommand.parse(["-s", "4", url]).download.split, 4)
    }

    /// Standard output as wget's and curl's users write it: `-O-`, `-qO-`, `-qO -`, `-sSLo-`,
    /// `-o -`; a cluster that only ends in `o` before another word stays as it is.
    func testStandardOutputJoinedOrClusteredIsDashOAndADash() throws {
        let url = "https://example.org/a.sh"
        XCTAssertEqual(GetCommand.arguments(["-qO-", url]), ["get", "-q", "-o", "-", url])
        XCTAssertEqual(GetCommand.arguments(["-O-", url]), ["get", "-o", "-", url])
        XCTAssertEqual(GetCommand.arguments(["-qO", "-", url]), ["get", "-q", "-o", "-", url])
        XCTAssertEqual(GetCommand.arguments(["-fsSL", url, "-o-"]), ["get", "-q", "-L", url, "-o", "-"])
        XCTAssertEqual(GetCommand.arguments(["-sSLo-", url]), ["get", "-q", "-L", "-o", "-", url])
        XCTAssertEqual(GetCommand.arguments(["-o", "-", url]), ["get", "-o", "-", url])
        XCTAssertEqual(GetCommand.arguments(["-xo-", url]), ["get", "-xo-", url], "not flags haul reads as curl's")
        for words in [["-qO-", url], ["-sSL", url, "-o", "-"], ["-O", "-", url]] {
            let get = try GetCommand.parse(Array(GetCommand.arguments(words).dropFirst()))
            XCTAssertEqual(get.urls, [url], "\(words)")
            XCTAssertEqual(get.download.output, "-", "\(words)")
        }
        XCTAssertThrowsError(try GetCommand.parse(["-o", "-", url + ".torrent"]))
        XCTAssertThrowsError(try GetCommand.parse(["-o", "-", "ftp://example.org/a"]))
    }

    /// aria2c as scripts run it: `-x16 -s16 -k1M`, `--file-allocation`, `--max-concurrent-downloads`.
    /// `-k` before anything but a size is still curl's `--insecure`, refused.
    func testAria2csMinSplitSizeFileAllocationAndConcurrentDownloads() throws {
        let url = "https://example.org/a.iso"
        XCTAssertEqual(GetCommand.arguments(["-k", "1M", url]), ["get", "--min-split-size=1M", url])
        XCTAssertEqual(
            GetCommand.arguments(["-x16", "-s16", "-k1M", url]), ["get", "-x16", "-s16", "--min-split-size=1M", url])
        XCTAssertEqual(
            GetCommand.arguments(["-x", "16", "-s", "16", "-k", "20M", url]),
            ["get", "-x", "16", "-s", "16", "--min-split-size=20M", url])
        XCTAssertEqual(GetCommand.arguments(["-k", url]), ["get", "-k", url], "curl's -k")
        XCTAssertEqual(GetCommand.arguments(["add", "-k", "1M", url]), ["add", "--min-split-size=1M", url])
        XCTAssertEqual(GetCommand.arguments(["--", "-k", "1M"]), ["--", "-k", "1M"])
        for words in [["-x16", "-s16", "-k1M"], ["--file-allocation=none", "--max-concurrent-downloads", "5"]] {
            let get = try GetCommand.parse(Array(GetCommand.arguments(words + [url]).dropFirst()))
            XCTAssertEqual(get.urls, [url], "\(words)")
        }
        XCTAssertEqual(try GetCommand.parse(["--max-concurrent-downloads", "5", url]).concurrency, 5)
        XCTAssertEqual(try GetCommand.parse(["-x16", "-s16", "--min-split-size=1M", url]).download.split, 16)
        XCTAssertThrowsError(try GetCommand.parse(["-k", url]), "curl's -k is refused with its sentence")
        XCTAssertThrowsError(try GetCommand.parse(["--min-split-size=big", url]))
        XCTAssertThrowsError(try GetCommand.parse(["--file-allocation=maybe", url]))
        XCTAssertTrue(GetCommand.isAria2Size("1048576") && GetCommand.isAria2Size("512k"))
        XCTAssertFalse(GetCommand.isAria2Size("M") || GetCommand.isAria2Size("") || GetCommand.isAria2Size("1G"))
    }

    /// `-nc` looks for a file by the name known before the server answers, and leaves a second
    /// URL of the same name alone as it would the file the first one makes.
    func testNoClobberFetchesOnlyWhatIsNotHereByItsPlannedName() {
        var named = DownloadRequest(url: "http://h/x/a.iso", directory: "/d", requestedName: "b.iso")
        XCTAssertEqual(NoClobber.plannedPath(of: named), "/d/b.iso")
        named.requestedName = nil
        XCTAssertEqual(NoClobber.plannedPath(of: named), "/d/a.iso")
        XCTAssertEqual(NoClobber.plannedPath(of: DownloadRequest(url: "http://h/", directory: "/d/")), "/d/download")
        let magnet = DownloadRequest(url: "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))", directory: "/d")
        XCTAssertNil(NoClobber.plannedPath(of: magnet), "a torrent checks its own files")
        let requests = [
            DownloadRequest(url: "http://h/a.iso", directory: "/d"),
            DownloadRequest(url: "http://h/b.iso", directory: "/d"),
            DownloadRequest(url: "http://mirror/b.iso", directory: "/d"), magnet,
        ]
        let (fetched, present) = NoClobber.split(requests) { $0 == "/d/a.iso" }
        XCTAssertEqual(fetched.map(\.url), ["http://h/b.iso", magnet.url])
        XCTAssertEqual(present, ["/d/a.iso", "/d/b.iso"])
    }

    /// aria2c's `--bt-max-peers` caps a torrent's peers beyond `-x`'s 1-32, and leaves a file's
    /// connections to `-x`.
    func testBtMaxPeersIsATorrentsPeersAndLeavesAFilesConnectionsToX() throws {
        let magnet = "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))"
        // 0 is no limit of the torrent's own (the add path makes it nil), as aria2's 0 is none.
        for (given, peers) in [(["--bt-max-peers", "100"], 100), (["--bt-max-peers", "0"], nil), ([], 3)] {
            let add = try AddCommand.parse(given + ["-x", "3", magnet, "http://h/a.iso"])
            let plan = try AddPlan.make(urls: add.urls, add.download, environment: [:], defaultDirectory: "/tmp")
            XCTAssertEqual(plan.requests.map(\.connections), [peers, 3] as [Int?], "\(given)")
        }
        let remote = try AddCommand.parse(["--bt-max-peers", "60", "-x", "2", magnet, "http://h/a.iso"])
        let sent = try AddPlan.make(urls: remote.urls, remote.download, environment: [:], remote: true)
        XCTAssertEqual(sent.requests.map(\.connections), [60, 2], "with --connect too")
        for refused in ["10001", "-1"] {
            XCTAssertThrowsError(try AddCommand.parse(["--bt-max-peers=\(refused)", magnet]), refused)
        }
    }

    /// folder unless `-d` names another.
    func testGetsOptionsMakeTheRequestsAddWouldMake() throws {
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("haul-get-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: here) }
        let environment = ["HOME": here, "XDG_CONFIG_HOME": here + "/config"]
        let get = try GetCommand.parse([
            "http://h/a.iso", "-o", "b.iso", "-x", "4", "-s", "3", "--limit", "1M", "--header", "X-A: 1",
            "--allow-metered",
        ])
        let plan = try AddPlan.make(
            urls: get.urls, get.download, environment: environment, defaultDirectory: here + "/cwd")
        let request = try XCTUnwrap(plan.requests.first)
        XCTAssertEqual(request.directory, here + "/cwd")
        XCTAssertEqual(request.requestedName, "b.iso")
        XCTAssertEqual(request.connections, 3, "the fewer of -x and -s, as aria2c takes them")
        XCTAssertEqual(request.speedLimit, 1 << 20)
        XCTAssertEqual(request.headers.map(\.name), ["X-A"])
        XCTAssertTrue(request.allowMetered)
        let add = try AddCommand.parse(["http://h/a.iso", "-d", here + "/d"])
        let added = try AddPlan.make(urls: add.urls, add.download, environment: environment, defaultDirectory: nil)
        XCTAssertEqual(added.requests.first?.directory, here + "/d", "-d wins over the default, for both")
        // curl's -L and -O (no value: the remote name, as haul names every download).
        for words in [
            ["-LO", "http://h/a.iso"], ["-L", "-O", "http://h/a.iso"], ["-O", "http://h/a.iso", "http://h/b"],
            ["-O", "http://h/a.iso", "-O", "http://h/b"],
        ] {
            XCTAssertEqual(GetCommand.arguments(words).first, "get", "\(words)")
            let curl = try GetCommand.parse(words)
            XCTAssertEqual(curl.urls, Array(words.filter { $0.hasPrefix("http") }), "\(words)")
            XCTAssertNil(curl.download.output, "\(words)")
        }
        let two = try AddCommand.parse(["-O", "http://h/a.iso", "-O", "http://h/b"])
        XCTAssertEqual(two.urls, ["http://h/a.iso", "http://h/b"], "haul add too: each -O URL is fetched")
        XCTAssertThrowsError(try GetCommand.parse(["-o", "a.iso", "-o", "b.iso", "http://h/a.iso"]), "one name")
        let magnet = try AddCommand.parse(["-O", "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))"])
        XCTAssertEqual(magnet.urls.count, 1)
        XCTAssertNil(magnet.download.output)
        // wget's and aria2c's -U, and --referer: the headers they are.
        let named = try GetCommand.parse(["-U", "Mozilla/5.0", "--referer", "https://h/page", "http://h/a.iso"])
        let headers = try AddPlan.make(
            urls: named.urls, named.download, environment: environment, defaultDirectory: here
        ).requests.first?.headers.map { "\($0.name): \($0.value)" }
        XCTAssertEqual(headers, ["User-Agent: Mozilla/5.0", "Referer: https://h/page"])
        // curl's and wget's --limit-rate, aria2c's --max-download-limit.
        for name in ["--limit-rate", "--max-download-limit"] {
            let limited = try GetCommand.parse([name, "100k", "http://h/a.iso"])
            let plan = try AddPlan.make(
                urls: limited.urls, limited.download, environment: environment, defaultDirectory: here)
            XCTAssertEqual(plan.requests.first?.speedLimit, 100 << 10, name)
        }
    }

    /// wget's `-O PATH` and `-P DIR`, and a path in `-o`: the folder goes to the request's
    /// directory, under `-d` when relative, and only the last part is the name.
    func testAnOutputPathPutsTheFileInItsFolder() throws {
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("haul-get-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: here) }
        let environment = ["HOME": here, "XDG_CONFIG_HOME": here + "/config"]
        func request(_ arguments: [String]) throws -> DownloadRequest {
            let get = try GetCommand.parse(arguments)
            let plan = try AddPlan.make(
                urls: get.urls, get.download, environment: environment, defaultDirectory: here + "/cwd")
            return try XCTUnwrap(plan.requests.first)
        }
        let wget = try request(["-O", here + "/isos/b.iso", "http://h/a.iso"])
        XCTAssertEqual([wget.directory, wget.requestedName], [here + "/isos", "b.iso"])
        let underD = try request(["-d", here + "/d", "-o", "sub/b.iso", "http://h/a.iso"])
        XCTAssertEqual([underD.directory, underD.requestedName], [here + "/d/sub", "b.iso"])
        let prefix = try request(["-P", here + "/p", "http://h/a.iso"])
        XCTAssertEqual([prefix.directory, prefix.requestedName], [here + "/p", nil])
        // aria2c's and wget's long names.
        let aria2 = try request(["--dir", here + "/d", "--out", "c.iso", "http://h/a.iso"])
        XCTAssertEqual([aria2.directory, aria2.requestedName], [here + "/d", "c.iso"])
        let wgetLong = try request(["--directory-prefix", here + "/p", "--output-document", "e.iso", "http://h/a.iso"])
        XCTAssertEqual([wgetLong.directory, wgetLong.requestedName], [here + "/p", "e.iso"])
        let plain = try request(["-O", "b.iso", "http://h/a.iso"])
        XCTAssertEqual([plain.directory, plain.requestedName], [here + "/cwd", "b.iso"])
        for (bad, sentence) in [
            ("-", "(standard output) is for 'haul URL -o -'"), ("sub/", "names a folder"),
            ("sub/.hidden", "is not a plain file name"),
        ] {
            XCTAssertThrowsError(try request(["-O", bad, "http://h/a.iso"]), bad) { error in
                XCTAssertTrue(String(describing: error).contains(sentence), "\(bad): \(error)")
            }
        }
    }

    func testDownloadsAreDoneWhenFinishedFailedPausedByAPersonOrRemoved() {
        let (a, b, c) = (DownloadID(rawValue: "aaaaaa"), DownloadID(rawValue: "bbbbbb"), DownloadID(rawValue: "cccccc"))
        var followed = FollowedDownloads([a, b, c])
        XCTAssertFalse(followed.allDone, "nothing known yet")
        /// A download brought to `state` by its transitions.
        func download(_ id: DownloadID, _ state: DownloadState) -> Download {
            var d = Download(id: id, url: "http://h/\(id.rawValue)", directory: "/tmp", queueOrder: 0)
            switch state {
            case .waiting: break
            case .downloading: _ = d.start()
            case .paused(let cause): _ = d.pause(cause)
            case .finished: _ = d.finish(fileName: "x", size: 1, at: Date(timeIntervalSince1970: 1_795_000_000))
            case .failed(let reason): _ = d.fail(reason)
            }
            XCTAssertEqual(d.state, state)
            return d
        }
        followed.apply([download(a, .downloading), download(b, .waiting), download(c, .paused(by: .metered))])
        XCTAssertFalse(followed.allDone)
        followed.apply(.updated(download(a, .finished)))
        followed.apply(.updated(download(b, .failed(.status(404)))))
        XCTAssertFalse(followed.allDone, "a download a policy holds is waited for")
        followed.apply(.updated(download(c, .paused(by: .user))))
        XCTAssertTrue(followed.allDone)
        XCTAssertEqual(followed.failed, [b])

        var removed = FollowedDownloads([a])
        removed.apply(.removedMany([a]))
        XCTAssertTrue(removed.allDone)
        XCTAssertTrue(removed.concerns(.network(NetworkStatus(mode: .off))), "the engine's own events are shown")
        XCTAssertFalse(removed.concerns(.removed(b)))
    }
}
