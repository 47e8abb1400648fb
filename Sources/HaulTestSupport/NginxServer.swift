import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's nginx on a free loopback port, serving `root`, started and stopped by the test.
///
/// `/slow/…` serves the same files at `slowRate` so transfers can be caught mid-way. Given a
/// certificate it serves https instead of http.
/// The access log records each request's `Range` and the bytes sent, to prove resumes.
public final class NginxServer: Sendable {
    public let port: Int
    public let root: String
    public let directory: String
    public let scheme: String
    private let process: ChildProcess

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public static var executable: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public init(
        root: String, slowRate: String = "200k", keepaliveTimeout: String = "75s", tls: TestCertificate? = nil,
        workDirectory: String, httpLines: String = "", serverLines: (_ port: Int) -> String = { _ in "" }
    ) async throws {
        guard let nginx = Self.executable else {
            throw Unavailable(description: "nginx is not installed (apt-get install nginx-light)")
        }
        self.root = root
        directory = workDirectory
        scheme = tls == nil ? "http" : "https"
        let tlsLines = tls.map { "ssl_certificate \($0.certificatePath); ssl_certificate_key \($0.keyPath);" } ?? ""
        try FileManager.default.createDirectory(atPath: workDirectory + "/tmp", withIntermediateDirectories: true)
        var lastError = ""
        for _ in 0..<5 {
            let port = FreePort.find()
            let config = """
                daemon off;
                master_process off;
                worker_processes 1;
                error_log \(workDirectory)/error.log;
                pid \(workDirectory)/nginx.pid;
                events { worker_connections 2048; }
                http {
                  types { text/plain txt; application/octet-stream bin; application/metalink4+xml meta4; }
                  default_type application/octet-stream;
                  log_format haul '$request_uri|$http_range|$http_if_range|$status|$body_bytes_sent|$connection'
                    '|$msec|$request_time';
                  access_log \(workDirectory)/access.log haul;
                  log_format credentials '$request_uri|$http_authorization|$http_cookie|$http_x_secret';
                  access_log \(workDirectory)/credentials.log credentials;
                  \(httpLines)
                  client_body_temp_path \(workDirectory)/tmp;
                  proxy_temp_path \(workDirectory)/tmp;
                  fastcgi_temp_path \(workDirectory)/tmp;
                  uwsgi_temp_path \(workDirectory)/tmp;
                  scgi_temp_path \(workDirectory)/tmp;
                  keepalive_requests 100000;
                  keepalive_timeout \(keepaliveTimeout);
                  server {
                    listen 127.0.0.1:\(port)\(tls == nil ? "" : " ssl http2");
                    \(tlsLines)
                    root \(root);
                    location /slow/ { alias \(root)/; limit_rate \(slowRate); }
                    location /gone { return 410; }
                    location /gzip/ { alias \(root)/; limit_rate \(slowRate); add_header Content-Encoding gzip; }
                    \(serverLines(port))
                  }
                }
                """
            try config.write(toFile: workDirectory + "/nginx.conf", atomically: true, encoding: .utf8)
            let child = try ChildProcess(
                nginx, ["-c", workDirectory + "/nginx.conf", "-p", workDirectory, "-e", workDirectory + "/error.log"],
                environment: [:], stderr: workDirectory + "/stderr.log"
            )
            for _ in 0..<100 {
                if FreePort.isListening(port) {
                    self.port = port
                    self.process = child
                    return
                }
                if await child.wait(timeout: 0.05) != nil { break }
            }
            await child.terminate()
            lastError = (try? String(contentsOfFile: workDirectory + "/error.log", encoding: .utf8)) ?? ""
        }
        throw Unavailable(description: "nginx did not start: \(lastError)")
    }

    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(path)" }

    public func stop() async { await process.terminate() }

    /// One access-log line.
    public struct LogEntry: Sendable, Equatable {
        public var uri: String
        public var range: String?
        public var ifRange: String?
        public var status: Int
        public var bytesSent: Int64
        /// nginx's serial number of the connection the request came on.
        public var connection: Int
        /// When the response ended, and how long it took, in seconds.
        public var end: Double = 0
        public var duration: Double = 0

        /// When the request came.
        public var start: Double { end - duration }
    }

    /// The most responses the log shows in progress at one moment (for `uri` only, when given).
    public func peakConcurrency(uri: String? = nil) -> Int {
        var events: [(Double, Int)] = []
        for entry in accessLog() where uri == nil || entry.uri == uri {
            events.append((entry.start, 1))
            events.append((entry.end, -1))
        }
        // An end before a start at the same moment: touching responses do not overlap.
        events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var now = 0
        var peak = 0
        for (_, change) in events {
            now += change
            peak = max(peak, now)
        }
        return peak
    }

    /// Each request's URI with the credentials it carried: `Authorization`, `Cookie`, `X-Secret`
    /// (`-` for none), as `uri|authorization|cookie|x-secret` lines.
    public func credentialsLog() -> [String] {
        let text = (try? String(contentsOfFile: directory + "/credentials.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    public func accessLog() -> [LogEntry] {
        let text = (try? String(contentsOfFile: directory + "/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 8 else { return nil }
            return LogEntry(
                uri: f[0], range: f[1] == "-" ? nil : f[1], ifRange: f[2] == "-" ? nil : f[2],
                status: Int(f[3]) ?? 0, bytesSent: Int64(f[4]) ?? 0, connection: Int(f[5]) ?? 0,
                end: Double(f[6]) ?? 0, duration: Double(f[7]) ?? 0
            )
        }
    }
}
