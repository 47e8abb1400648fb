import ArgumentParser
import HaulCore
import HaulStore

/// What a download is asked to be, as `haul add` and `haul URL…` both take it: the same options
/// with the same meaning, whichever of the two commands a person types.
struct DownloadOptions: ParsableArguments {
    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "Read URLs from a file ('-' for standard input): one per line, or aria2's input-file format (indented "
                + "dir=, out=, checksum=, header=, split=, max-connection-per-server= lines under a URL).",
            valueName: "file")
    )
    var inputFile: String?

    @Option(
        name: [
            .customShort("d"), .customShort("P"), .long, .customLong("dir"), .customLong("directory-prefix"),
            .customLong("output-dir"),
        ],
        help: ArgumentHelp(
            "Directory to save into (created if missing); -P and --directory-prefix as wget takes them, --dir as "
                + "aria2c does, --output-dir as curl does.",
            valueName: "dir"))
    var directory: String?

    @Option(
        name: [
            .customShort("o"), .customShort("O"), .customLong("output"), .customLong("out"),
            .customLong("output-document"),
        ],
        help: ArgumentHelp(
            "File name to save as (one URL only); a path saves it in that folder, under -d if given (-O and "
                + "--output-document as wget takes them, --out as aria2c does; a URL after -O is the URL, as curl "
                + "takes it); '-' on 'haul URL' streams one file to standard output and keeps nothing.",
            valueName: "name"))
    var outputWords: [String] = []

    /// The file name asked for: `-o`'s, once ``takeURLGivenAsName(into:)`` has taken curl's
    /// `-O URL`s out.
    var output: String? { outputWords.first }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Expected checksum, TYPE=HEX with TYPE md5, sha-1, sha-224, sha-256, sha-384 or sha-512; a mismatch "
                + "fails the download.",
            valueName: "type=hex"))
    var checksum: String?

    @Option(name: .long, help: ArgumentHelp("Expected SHA-256 (same as --checksum sha-256=HEX).", valueName: "hex"))
    var sha256: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file as sha256sum, sha512sum, sha1sum or md5sum write it; each download is checked against the "
                + "line for its file name.",
            valueName: "file"))
    var checksumFile: String?

    @Option(
        name: [.customShort("H"), .long],
        help: ArgumentHelp("A request header, 'Name: value' (repeatable; -H as curl takes it).", valueName: "header"))
    var header: [String] = []

    @Option(
        name: [.customShort("U"), .customLong("user-agent")],
        help: ArgumentHelp("The User-Agent header to send (-U as wget and aria2c take it).", valueName: "text"))
    var userAgent: String?

    @Option(
        name: .long, help: ArgumentHelp("The Referer header to send, as wget, curl and aria2c do.", valueName: "url"))
    var referer: String?

    @Option(
        name: [.customShort("u"), .customLong("user"), .customLong("http-user")],
        help: ArgumentHelp(
            "A login for the URL's host, sent as HTTP Basic to that host only: curl's -u USER:PASSWORD, or wget's "
                + "--user and aria2c's --http-user with --password.",
            valueName: "user[:password]"))
    var user: String?

    @Option(
        name: [.customLong("password"), .customLong("http-password"), .customLong("http-passwd")],
        help: ArgumentHelp("The password of --user, as wget and aria2c take it.", valueName: "password"))
    var password: String?

    /// The headers asked for: `--header`, then `--user-agent`, `--referer` and `--user` as the
    /// headers they are.
    var headerLines: [String] {
        header + (userAgent.map { ["User-Agent: \($0)"] } ?? []) + (referer.map { ["Referer: \($0)"] } ?? [])
            + (login.map { ["Authorization: \($0.basicAuthorization)"] } ?? [])
    }

    /// `--user` and `--password` together; nil without `--user`.
    var login: BasicLogin? {
        guard let user else { return nil }
        if let password { return BasicLogin(user: user, password: password) }
        guard let colon = user.firstIndex(of: ":") else { return nil }
        return BasicLogin(user: String(user[..<colon]), password: String(user[user.index(after: colon)...]))
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Cookies to send, from a cookies.txt file (Netscape format, as curl -b, wget and aria2c read it); "
                + "default: 'haul cookies'.",
            valueName: "file"))
    var loadCookies: String?

    @Option(
        name: [.long, .customLong("all-proxy")],
        help: ArgumentHelp(
            "Its own proxy: http://host:port, socks5://host:port, socks5h://host:port, or none (see haul proxy); "
                + "--all-proxy as aria2c takes it.",
            valueName: "proxy"))
    var proxy: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Logins for the hosts you name, from this netrc file (default: $NETRC, else ~/.netrc); never sent to "
                + "another host or a mirror.",
            valueName: "file"))
    var netrcFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Another URL of the same file (repeatable, one URL only): the file is fetched from all of them at once, "
                + "and from the next while one does not answer.",
            valueName: "url"))
    var mirror: [String] = []

    @Flag(
        name: .long,
        help: "Use no mirrors or checksums that servers name in Link and Digest headers or Metalink documents.")
    var noMirrors = false

    @Option(
        name: [.customShort("x", allowingJoined: true), .long, .customLong("max-connection-per-server")],
        help: ArgumentHelp(
            "Most connections per file, 1-32 (default: 'haul connections', 8). Servers that serve ranges get "
                + "several; others one. A torrent's are its peers (at least 2).",
            valueName: "n"))
    var connections: Int?

    @Option(
        name: [.customShort("s", allowingJoined: true), .long],
        help: ArgumentHelp(
            "aria2c's --split: most pieces fetched at once; with -x, the fewer of the two holds, as in aria2c.",
            valueName: "n"))
    var split: Int?

    /// The most connections asked for: `-x` and `-s`, the fewer of the two (aria2c's rule).
    var connectionCount: Int? { [connections, split].compactMap { $0 }.min() }

    @Option(
        name: .customLong("bt-max-peers"),
        help: ArgumentHelp(
            "For a torrent: the most peers it connects to, up to 10000, 0 for no limit of its own, as in aria2c "
                + "(without it, -x counts its peers).",
            valueName: "n"))
    var btMaxPeers: Int?

    /// What a torrent's connections (its peers) are asked to be: `--bt-max-peers`, else `-x`.
    var peerCount: Int? { btMaxPeers ?? connectionCount }

    @Option(
        name: [.long, .customLong("limit-rate"), .customLong("max-download-limit")],
        help: ArgumentHelp(
            "Its own speed limit, e.g. 500K or 2M (--limit-rate as curl and wget take it, --max-download-limit as "
                + "aria2c does).",
            valueName: "rate"))
    var limit: String?

    @Option(
        name: .long, help: ArgumentHelp("For a torrent: its own upload limit, e.g. 200K.", valueName: "rate"))
    var uploadLimit: String?

    @Option(
        name: [.customShort("t"), .customLong("tries"), .customShort("m"), .customLong("max-tries")],
        help: ArgumentHelp(
            "The most attempts in all before it fails, 0 or inf for no limit (default 6: one and five retries); -t "
                + "and --tries as wget takes them, -m and --max-tries as aria2c does.",
            valueName: "n"))
    var tries: TryLimit?

    @Option(
        name: .customLong("retry"),
        help: ArgumentHelp("curl's: retries after the first attempt (--retry 3 is --tries 4).", valueName: "n"))
    var retries: Int?

    /// The most attempts asked for: `-t` (and its aliases), else curl's `--retry` and the first.
    var attempts: Int? { tries?.attempts ?? retries.map { $0 + 1 } }

    @Option(
        name: .customLong("seed-ratio"),
        help: ArgumentHelp(
            "For a torrent: stop seeding it at this upload ratio, e.g. 2.0 (default: 'haul torrents').",
            valueName: "r"))
    var seedRatio: String?

    @Option(
        name: .customLong("seed-time"),
        help: ArgumentHelp(
            "For a torrent: stop seeding it after this many minutes; 0 seeds it not at all, as in aria2c.",
            valueName: "minutes"))
    var seedTime: String?

    /// `--seed-ratio` and `--seed-time` as a torrent keeps them; nil when neither was given.
    var seedGoal: SeedGoal? {
        let goal = SeedGoal(
            ratio: seedRatio.flatMap { try? SeedGoal.ratio(parsing: $0) },
            minutes: seedTime.flatMap { try? SeedGoal.minutes(parsing: $0) })
        return goal.isEmpty ? nil : goal
    }

    @Option(
        name: .customLong("select-file"),
        help: ArgumentHelp("For a torrent: only these files, numbered from 1 (e.g. 1,3-5).", valueName: "list"))
    var selectFile: String?

    @Flag(name: .long, help: "Allow this download on a metered network.")
    var allowMetered = false

    /// curl's `-k` and wget's `--no-check-certificate`, taken only to say what haul does instead.
    @Flag(name: [.customShort("k"), .customLong("insecure"), .customLong("no-check-certificate")], help: .hidden)
    var skipCertificateCheck = false

    /// aria2c's `--check-certificate=false`, refused as `-k` is; `true` is what haul does anyway.
    @Option(name: .customLong("check-certificate"), help: .hidden)
    var checkCertificate: String?

    /// aria2c's `-k`/`--min-split-size` (``GetCommand/readingAria2csMinSplitSize(_:)`` makes
    /// `-k 1M` this): haul sizes a file's pieces itself, so it changes nothing.
    @Option(name: .customLong("min-split-size"), help: .hidden)
    var minSplitSize: String?

    /// aria2c's `--file-allocation`: haul writes each piece where it belongs whatever is chosen.
    @Option(name: .customLong("file-allocation"), help: .hidden)
    var fileAllocation: String?

    /// The options that take a value as the next word, by every name they have: `haul -o NAME URL`
    /// is read as `haul get …` only if the words before the URL are known to be options and values.
    static let namesWithValues: Set<String> = [
        "-i", "--input-file", "-d", "-P", "--directory", "--dir", "--directory-prefix", "--output-dir", "-o", "-O",
        "--output",
        "--out", "--output-document", "--checksum", "--sha256", "--max-connection-per-server",
        "--checksum-file", "--header", "-H", "-u", "--user", "--http-user", "--password", "--http-password",
        "--http-passwd", "-U", "--user-agent", "--referer", "--load-cookies", "--proxy",
        "--netrc-file",
        "--mirror", "-x", "--connections",
        "-s", "--split", "--limit", "--limit-rate", "--max-download-limit", "--upload-limit", "--select-file",
        "--seed-ratio", "--seed-time", "-t", "--tries", "-m", "--max-tries", "--bt-max-peers", "--all-proxy",
        "--retry",
    ]

    /// Options of other tools with a value, taken only to be refused or to change nothing, and
    /// left out of the help.
    static let hiddenNamesWithValues: Set<String> = ["--check-certificate", "--min-split-size", "--file-allocation"]

    /// The options that take no value.
    static let flagNames = Set(["--no-mirrors", "--allow-metered"]).union(refusedFlagNames)

    /// Flags of other tools that are taken only to be refused with a sentence.
    static let refusedFlagNames: Set<String> = ["-k", "--insecure", "--no-check-certificate"]

    func validate() throws {
        if let minSplitSize, !GetCommand.isAria2Size(minSplitSize) {
            throw ValidationError("--min-split-size takes a size, e.g. 1M")
        }
        if let fileAllocation, !["none", "prealloc", "trunc", "falloc"].contains(fileAllocation) {
            throw ValidationError("--file-allocation takes none, prealloc, trunc or falloc")
        }
        if let checkCertificate, !["true", "false"].contains(checkCertificate) {
            throw ValidationError("--check-certificate takes true or false")
        }
        if skipCertificateCheck || checkCertificate == "false" {
            throw ValidationError(
                "haul always checks https certificates; to trust a server's own, set SSL_CERT_FILE to a file "
                    + "with its certificate (or its CA's)")
        }
        if let connections, !StateDocument.Settings.connectionRange.contains(connections) {
            let peers = connections > 32 ? "; a torrent's peers go up to \(PeerLimit.most) with --bt-max-peers" : ""
            throw ValidationError("--connections must be between 1 and 32\(peers)")
        }
        if user != nil, login == nil {
            throw ValidationError("give the password too: -u USER:PASSWORD, or --user USER --password PASSWORD")
        }
        if password != nil, user == nil { throw ValidationError("--password goes with --user USER") }
        if login != nil, header.contains(where: { $0.lowercased().hasPrefix("authorization:") }) {
            throw ValidationError("give --user or an Authorization header, not both")
        }
        if let tries, tries.attempts < 0 {
            throw ValidationError("--tries takes a number of attempts, or 0 for no limit")
        }
        if let retries, retries < 0 { throw ValidationError("--retry takes a number of retries, 0 or more") }
        if tries != nil, retries != nil { throw ValidationError("give --tries or --retry, not both") }
        if let btMaxPeers, !(0...PeerLimit.most).contains(btMaxPeers) {
            throw ValidationError("--bt-max-peers takes a number of peers up to \(PeerLimit.most), or 0 for no limit")
        }
        if let split, !StateDocument.Settings.connectionRange.contains(split) {
            throw ValidationError("--split must be between 1 and 32")
        }
        if let uploadLimit, (Formatting.parseRate(uploadLimit) ?? 0) < SpeedLimit.minimumRate {
            throw ValidationError("--upload-limit takes a speed such as 200K or 2M")
        }
        do {
            if let seedRatio { _ = try SeedGoal.ratio(parsing: seedRatio) }
            if let seedTime { _ = try SeedGoal.minutes(parsing: seedTime) }
        } catch {
            throw ValidationError(error.message)
        }
        if let limit, Formatting.parseRate(limit) == nil {
            throw ValidationError("'\(TerminalText.sanitize(limit))' is not a speed limit; try 500K or 2M")
        }
        if checksum != nil && sha256 != nil { throw ValidationError("give --checksum or --sha256, not both") }
    }

    /// The rules that depend on the URLs given beside the options.
    /// curl's `-O` (`--remote-name`) takes no value: a URL after it is a URL to save under its own
    /// name, as haul saves every download, and moves to `urls`, each one of several
    /// (`-O URL1 -O URL2`). A name is never a URL.
    mutating func takeURLGivenAsName(into urls: inout [String]) {
        let given = outputWords.filter { $0.contains("://") || MagnetLink.isMagnet($0) }
        urls.insert(contentsOf: given, at: 0)
        outputWords.removeAll { $0.contains("://") || MagnetLink.isMagnet($0) }
    }

    func check(urls: [String]) throws {
        if urls.isEmpty && inputFile == nil { throw ValidationError("give at least one URL (or -i FILE)") }
        if outputWords.count > 1 { throw ValidationError("-o names one file; give it once, with one URL") }
        if output != nil && (urls.count > 1 || inputFile != nil) {
            throw ValidationError("-o names one file; give one URL with it")
        }
        if !mirror.isEmpty && (urls.count != 1 || inputFile != nil) {
            throw ValidationError("--mirror names another URL of one file; give one URL with it")
        }
    }
}
