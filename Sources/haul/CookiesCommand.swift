import ArgumentParser
import HaulCore
import HaulEngine
import HaulStore

struct CookiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookies",
        abstract: "Show or set the cookies.txt file downloads send cookies from (saved).",
        discussion:
            "The file is in the Netscape format that curl -b, wget --load-cookies and aria2c --load-cookies read "
            + "(browser extensions export it). It is read again each time a download starts; each cookie goes "
            + "only to its domain and path, secure ones only over https. 'haul add --load-cookies FILE' gives one "
            + "download its own. Cookie values are never shown."
    )

    @Argument(help: ArgumentHelp("The file, or 'none'; omit to show it.", valueName: "file"))
    var file: String?

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let path: String?? = file.map {
            $0 == "none" ? nil : StatePaths.absolute($0, environment: stateOptions.environment)
        }
        if let path, let path {
            do throws(InputError) {
                _ = try CookieFile.load(path)
            } catch {
                throw error.reported()
            }
        }
        let engine = try await EngineAccess.session(stateOptions)
        let current: String?
        do {
            if let path {
                try await engine.perform(.setCookieFile(path))
                try await engine.save()
            }
            current = try await engine.snapshot().cookieFile
        } catch {
            throw Console.failure(error)
        }
        guard let current else { return Console.out("cookies: none (haul cookies FILE sets a cookies.txt file)") }
        let count = (try? CookieFile.load(current).count).map { "\($0) cookie(s)" } ?? "cannot be read now"
        Console.out("cookies: \(TerminalText.sanitize(current)) (\(count))")
    }
}
