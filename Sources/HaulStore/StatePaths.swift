import FoundationEssentials
import Glibc
import HaulCore

/// Where haul keeps its state and puts downloads, following the XDG base directories.
public enum StatePaths {
    /// `--state`, else `HAUL_STATE`, else `$XDG_STATE_HOME/haul/state.json`, else `~/.local/state/haul/state.json`.
    public static func stateFile(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return absolute(explicit, environment: environment) }
        if let fromEnv = environment["HAUL_STATE"], !fromEnv.isEmpty {
            return absolute(fromEnv, environment: environment)
        }
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home(environment)
            + "/.local/state"
        return base + "/haul/state.json"
    }

    /// `XDG_DOWNLOAD_DIR` (environment, then `user-dirs.dirs`), else `~/Downloads`.
    public static func downloadDirectory(environment: [String: String]) -> String {
        let home = home(environment)
        if let dir = environment["XDG_DOWNLOAD_DIR"], dir.hasPrefix("/") { return dir }
        if let text = try? String(contentsOfFile: configHome(environment) + "/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
                var value = String(line.dropFirst("XDG_DOWNLOAD_DIR=".count)).trimmingCharacters(where: { $0 == "\"" })
                value = value.replacing("$HOME", with: home)
                if value.hasPrefix("/") { return value }
            }
        }
        return home + "/Downloads"
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome(_ environment: [String: String]) -> String {
        environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home(environment) + "/.config"
    }

    /// The folder rules the user keeps (`FolderRulesFile`): `<config home>/haul/folders`.
    public static func folderRules(environment: [String: String]) -> String {
        configHome(environment) + "/haul/folders"
    }

    /// The engines on other machines the user saved (`haul remote add`): `<config home>/haul/remotes.json`.
    public static func remotes(environment: [String: String]) -> String {
        configHome(environment) + "/haul/remotes.json"
    }

    public static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome()
    }

    /// The home folder the password database gives the user haul runs as ("/" when it gives none).
    static func accountHome() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    /// Makes `path` absolute against the current directory, expanding a leading `~/`.
    public static func absolute(_ path: String, environment: [String: String]) -> String {
        var p = path
        if p == "~" { p = home(environment) } else if p.hasPrefix("~/") { p = home(environment) + p.dropFirst(1) }
        if !p.hasPrefix("/") { p = FileManager.default.currentDirectoryPath + "/" + p }
        return URL(fileURLWithPath: p).standardizedFileURL.path
    }
}
