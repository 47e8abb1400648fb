import FoundationEssentials
import HaulCore

/// A cookies.txt file a download's requests carry the cookies of (`--load-cookies`).
public enum CookieFile {
    /// The cookies in the file at `path`, or one sentence why they cannot be read.
    public static func load(_ path: String) throws(InputError) -> [Cookie] {
        let shown = TerminalText.sanitize(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw InputError("cannot read the cookie file \(shown): \(why)")
        }
        do {
            return try CookiesText.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw InputError("cannot use the cookie file \(shown): \(error.message)")
        }
    }
}
