import FoundationEssentials
import Synchronization

/// The cookies of one download's transfer: those of its cookies.txt file, and those its
/// responses set (during redirects, say), sent with its later requests by domain, path and the
/// secure flag. Shared by the transfer's connections, so a class behind a lock.
///
/// Cookie values are never put into a notice, an error or a log: they are credentials.
public final class CookieJar: Sendable {
    private let cookies: Mutex<[Cookie]>
    /// What expiry is judged by: the engine's clock.
    private let clock: WallClock

    public init(_ cookies: [Cookie] = [], clock: WallClock) {
        self.cookies = Mutex(cookies)
        self.clock = clock
    }

    public var all: [Cookie] { cookies.withLock { $0 } }

    /// The `Cookie` header for a request to `url`, longest paths first (RFC 6265 §5.4); nil when
    /// no cookie belongs to it.
    public func header(for url: String) -> String? {
        guard let parts = URLParts(url) else { return nil }
        let now = clock.now()
        let matching = cookies.withLock { all in all.filter { $0.belongs(to: parts, at: now) } }
        guard !matching.isEmpty else { return nil }
        return matching.enumerated().sorted {
            ($0.element.path.utf8.count, -$0.offset) > ($1.element.path.utf8.count, -$1.offset)
        }.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    /// Keeps the cookies of `setCookie` header values, received from `url` (RFC 6265 §5.2–5.3):
    /// one for another domain is ignored, one that expired removes its namesake.
    public func store(_ setCookie: [String], from url: String) {
        guard !setCookie.isEmpty, let parts = URLParts(url) else { return }
        let now = clock.now()
        for line in setCookie {
            guard let (cookie, expired) = SetCookie.parse(line, from: parts, at: now) else { continue }
            cookies.withLock { all in
                all.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if !expired { all.append(cookie) }
            }
        }
    }
}

extension CookieJar: Equatable {
    /// The same jar: a transfer's target carries its jar, and copies of the target share it.
    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs === rhs }
}
