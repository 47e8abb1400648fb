import ArgumentParser

/// `-q`, `--quiet` and `-nv`, `--no-verbose` of the commands that run downloads and report them
/// (`haul URL…`, `haul run`). Quiet: nothing is printed but why a download failed, on standard
/// error, as `wget -q` and `aria2c -q` keep a script's output clean; the exit code says the rest.
/// Brief: a line for each file that finishes or fails and the summary, no live lines, as
/// `wget -nv` prints.
struct QuietOption: ParsableArguments {
    @Flag(
        name: [.customShort("q"), .long],
        help: "Print nothing but why a download failed (on standard error); the exit code tells the rest.")
    var quiet = false

    @Flag(
        name: [.customLong("nv", withSingleDash: true), .customLong("no-verbose")],
        help: "Print a line for each file that finishes or fails, and the summary: no live lines (as wget -nv).")
    var brief = false

    /// Every name of the flags, for the words that make `haul URL…` a `get`.
    static let names: Set<String> = ["-q", "--quiet", "-nv", "--no-verbose"]
}
