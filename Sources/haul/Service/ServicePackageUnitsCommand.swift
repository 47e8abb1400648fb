import ArgumentParser
import FoundationEssentials
import HaulCore

/// `haul service package-units DIR` (hidden): writes the user units a package installs in
/// `/usr/lib/systemd/user`, for the packaging script, from the same definitions `haul service
/// install` writes.
struct ServicePackageUnitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package-units", abstract: "Write the units a package installs.", shouldDisplay: false)

    @Argument(help: "The folder to write haul.socket, haul-rpc.socket and haul.service into.")
    var directory: String

    @Option(help: "Where the package installs haul.")
    var binary = "/usr/bin/haul"

    func run() throws {
        for (name, text) in ServiceUnits.packaged(binary: binary).files {
            let path = PathText.joined(directory, name)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw InputError("cannot write \(TerminalText.sanitize(path))").reported()
            }
        }
    }
}
