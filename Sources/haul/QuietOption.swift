import ArgumentParser

/// `-q`, `--quiet` of the commands that run downloads and report them (`haul URL…`, `haul run`):
/// nothing is printed but why a download failed, on standard error, as `wget -q` and
/// `aria2c -q` keep a script's output clean. The exit code says the rest.
struct QuietOption: ParsableArguments {
    @Flag(
        name: [.customShort("q"), .long],
        help: "Print nothing but why a download failed (on standard error); the exit code tells the rest.")
    var quiet = false

    /// Every name of the flag, for the words that make `haul URL…` a `get`.
    static let names: Set<String> = ["-q", "--quiet"]
}
