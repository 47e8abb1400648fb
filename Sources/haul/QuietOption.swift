import ArgumentParser

/// `-q`, `--quiet` and `-nv`, `--no-verbose` of the commands that run downloads and report them
/// (`haul URL…`, `haul run`). Quiet: nothing is printed but why a download failed, on standard
/// error, as `wget -q` and `aria2c -q` keep a script's output clean; the exit code says the rest.
/// Brief: a line for each file that finishes or fails and the summary, no live lines, as
/// `wget -nv` prints.
struct QuietOption: ParsableArguments {
    @Flag(
        name: [.customShort("q"), .customLong("quiet")],
        help: "Print nothing but why a download failed (on standard error); the exit code tells the rest.")
    var quietAsked = false

    @Flag(
        name: [.customLong("nv", withSingleDash: true), .customLong("no-verbose")],
        help: "Print a line for each file that finishes or fails, and the summary: no live lines (as wget -nv).")
    var brief = false

    /// wget's `--show-progress`: the live lines even with `-q` (`wget -q --show-progress`).
    @Flag(name: .customLong("show-progress"), help: "Show the live lines even with -q, as wget takes it.")
    var showProgress = false

    /// wget's `--progress=STYLE` and curl's `--progress-bar`: haul draws its own lines.
    @Option(name: .customLong("progress"), help: .hidden)
    var progressStyle: String?
    @Flag(name: .customLong("progress-bar"), help: .hidden)
    var progressBar = false

    /// `-q`, unless `--show-progress` asks for the live lines.
    var quiet: Bool { quietAsked && !showProgress }

    /// Every name of the flags, for the words that make `haul URL…` a `get`.
    static let names: Set<String> = ["-q", "--quiet", "-nv", "--no-verbose", "--show-progress", "--progress-bar"]
    /// The names that take a value, all left out of the help.
    static let hiddenNamesWithValues: Set<String> = ["--progress"]
}
