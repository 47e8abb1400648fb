import ArgumentParser
import FoundationEssentials
import HaulCore

/// `haul URL…` (and `haul get URL…`): the URLs into the current directory, as wget does. The
/// root command cannot take URLs itself: a positional argument there would swallow every
/// subcommand's name that follows a root option (`haul --state S ls`), so ``arguments(_:)`` names
/// this command when the first word after the root's options is a URL.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs into the current directory and return when they are done (as 'haul URL…').",
        discussion:
            "The downloads go through the same folder rules, netrc logins and proxies as 'haul add', into the same "
            + "state: Ctrl-C keeps every byte and the same command resumes. Only these downloads run here; when a "
            + "daemon, the UI or another 'haul URL' already runs downloads, it takes them and this command follows "
            + "them. Exit "
            + "code 1 if one failed, 130 if interrupted.",
        shouldDisplay: false
    )

    @Argument(
        help: ArgumentHelp("http:// or https:// URLs, magnet links, torrent or Metalink files.", valueName: "url"))
    var urls: [String] = []

    @OptionGroup var download: DownloadOptions

    @Option(
        name: [
            .customShort("j", allowingJoined: true), .long, .customLong("max-concurrent-downloads"),
            .customLong("parallel-max"),
        ],
        help: ArgumentHelp(
            "How many downloads run at once (saved for next time, as 'haul run -j' saves it).", valueName: "n"))
    var concurrency: Int?

    @Flag(
        name: [.customShort("c"), .customLong("continue")],
        help: "Taken as wget and aria2c take it; haul always resumes what an earlier run left.")
    var continuing = false

    @Flag(
        name: [.customLong("nc", withSingleDash: true), .customLong("no-clobber")],
        help: "Skip a URL whose file is already in its folder, by the name -o or the URL gives it (as wget -nc).")
    var noClobber = false

    @Option(
        name: [.customShort("T"), .customLong("timeout")],
        help: ArgumentHelp(
            "Seconds without a byte, and to connect, before a try fails and is tried again (default 30 and 15); "
                + "wget's -T, aria2c's --timeout. They hold where this command runs the downloads itself.",
            valueName: "seconds"))
    var timeout: Int?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp(
            "Seconds to connect before a try fails (default 15), as curl and aria2c take it.",
            valueName: "seconds"))
    var connectTimeout: Int?

    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp(
            "Seconds this command runs at most, as curl takes it; then it stops as Ctrl-C does (every byte kept, "
                + "the same command resumes) with exit code 1.",
            valueName: "seconds"))
    var maxTime: Int?

    @Option(
        name: [.customShort("C"), .customLong("continue-at")],
        help: ArgumentHelp(
            "Taken as curl takes '-C -'; haul always resumes where its own .part ends.", valueName: "-"))
    var continueAt: String?

    @Flag(
        name: [.customShort("L"), .customLong("location")],
        help: "Taken as curl takes it; haul always follows redirects (up to 20).")
    var followingRedirects = false

    @Flag(
        name: [.customShort("Z"), .customLong("parallel"), .customLong("force-sequential")],
        help: "Taken as curl and aria2c take it: each URL is a file of its own, -j of them at once.")
    var eachURLItsOwn = false

    @Flag(
        name: [.customLong("content-disposition"), .customLong("create-dirs"), .customLong("compressed")],
        help: ArgumentHelp(
            "Taken as wget and curl take them; haul does what they ask anyway: names a file as the server does, "
                + "makes its folders, and keeps the file as the server has it."))
    var askedAnyway = false

    @OptionGroup var quietOption: QuietOption
    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    mutating func validate() throws {
        var given = urls
        download.takeURLGivenAsName(into: &given)
        urls = given
        try download.check(urls: urls)
        if download.output == "-" {
            do throws(InputError) { try StandardOutputDownload.check(urls) } catch {
                throw ValidationError(error.message)
            }
        }
        if let concurrency, concurrency < 1 { throw ValidationError("-j takes a number of downloads, 1 or more") }
        if let timeout, timeout < 1 { throw ValidationError("-T takes a number of seconds, 1 or more") }
        if let connectTimeout, connectTimeout < 1 {
            throw ValidationError("--connect-timeout takes a number of seconds, 1 or more")
        }
        if let maxTime, maxTime < 1 { throw ValidationError("--max-time takes a number of seconds, 1 or more") }
        if let continueAt, continueAt != "-" {
            throw ValidationError(
                "-C takes only '-': haul resumes where its own .part ends, and checks the rest is the same file")
        }
        if connectOptions.connect != nil {
            throw ValidationError("'haul URL' downloads on this machine; 'haul add --connect' adds to another")
        }
    }

    func run() async throws {
        if download.output == "-", let url = urls.first {
            return try await StandardOutputDownload(
                url: url, options: download,
                timeouts: CommandTimeouts(timeout: timeout, connectTimeout: connectTimeout),
                deadline: maxTime.map(CommandDeadline.init(seconds:)), stateOptions: stateOptions,
                hooks: hookOptions.hooks()
            ).run()
        }
        try await DirectDownload(
            urls: urls, options: download, concurrency: concurrency,
            timeouts: CommandTimeouts(timeout: timeout, connectTimeout: connectTimeout), quiet: quietOption.quiet,
            brief: quietOption.brief, noClobber: noClobber, deadline: maxTime.map(CommandDeadline.init(seconds:)),
            stateOptions: stateOptions, hooks: hookOptions.hooks()
        ).run()
    }
}
