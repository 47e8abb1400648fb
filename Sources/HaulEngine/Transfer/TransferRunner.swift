import AsyncHTTPClient
import Foundation
import HaulCore
import HaulStore
import NIOCore
import NIOHTTP1

/// Runs one download until it finishes, fails for good, or its task is cancelled:
/// attempts, redirects, resume decisions, streaming into the `.part`, retries, final placement.
///
/// It only talks to the engine through the `transfer…` methods, each tagged with the job's
/// generation, so a paused or cancelled run can never change the download afterwards.
struct TransferRunner: Sendable {
    let engine: Engine
    let pool: HTTPClientPool
    let throttle: Throttle
    let configuration: EngineConfiguration

    func run(_ initialJob: TransferJob) async {
        var job = initialJob
        while !Task.isCancelled {
            var progressMade = false
            do {
                try await attempt(&job, progressMade: &progressMade)
                return
            } catch {
                if Task.isCancelled || error is CancellationError { return }
                let failure = TransferError.classify(error, stallTimeout: configuration.stallTimeout)
                guard failure.isTransient,
                      let delay = await engine.transferWillRetry(job.id, job.generation, failure, madeProgress: progressMade)
                else {
                    await engine.transferEnded(job.id, job.generation, .failed(failure))
                    return
                }
                do { try await Task.sleep(for: .milliseconds(Int64(delay * 1000))) } catch { return }
            }
        }
    }

    /// One request (plus its redirects and at most two restarts without a range).
    private func attempt(_ job: inout TransferJob, progressMade: inout Bool) async throws {
        var restarts = 0
        while true {
            var offset: Int64 = 0
            if job.rangesUsable, let name = job.fileName, let size = PartFile.size(at: partPath(job, name)) { offset = size }

            let (response, finalURL) = try await request(job, offset: offset)
            let head = ResponseHead(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) })
            let action = ResponseInterpreter.interpret(head, requestedOffset: offset, previousETag: job.etag, previousLastModified: job.lastModified)

            switch action {
            case .redirect:
                preconditionFailure("redirects are followed in request(_:offset:)")
            case .fail(let reason, let transient, let retryAfter):
                throw TransferError(description: reason, isTransient: transient, retryAfter: retryAfter)
            case .restart(let reason):
                restarts += 1
                guard restarts <= 2 else { throw TransferError.transient(reason.rawValue) }
                if let name = job.fileName { try PartFile(path: partPath(job, name), truncate: true).close() }
                await engine.transferNotice(job.id, job.generation, reason.rawValue)
                continue
            case .alreadyComplete(let total):
                guard let name = job.fileName else { throw TransferError.permanent("server says complete but nothing was downloaded") }
                try await place(&job, name: name, size: total)
                return
            case .write(let writeOffset, var total, let startOver):
                var resumable = Self.resumable(head, startOver: startOver)
                if let coding = Self.contentCoding(head) {
                    guard ["gzip", "x-gzip", "deflate"].contains(coding) else {
                        throw TransferError.permanent("the server sent the file encoded as '\(TerminalText.sanitize(coding))', which haul cannot decode")
                    }
                    if writeOffset > 0 {
                        job.rangesUsable = false
                        restarts += 1
                        guard restarts <= 2 else { throw TransferError.transient("encoded response to a range request") }
                        continue
                    }
                    // The length on the wire is not the file's length, and encoded ranges can't be resumed.
                    job.rangesUsable = false
                    total = nil
                    resumable = false
                }
                let name = try await claimName(&job, head: head, finalURL: finalURL, total: total)
                if let total, let shortfall = DiskSpace.shortfall(writing: total - writeOffset, into: job.directory) {
                    throw TransferError.diskFull(shortfall: shortfall)
                }
                let info = ResponseInfo(
                    fileName: name,
                    receivedBytes: writeOffset,
                    totalBytes: total,
                    etag: head["etag"],
                    lastModified: head["last-modified"],
                    resumable: resumable,
                    finalURL: finalURL,
                    startOver: startOver
                )
                job.etag = info.etag
                job.lastModified = info.lastModified
                guard await engine.transferBegan(job.id, job.generation, info) else { throw CancellationError() }
                let size = try await stream(response.body, into: partPath(job, name), from: writeOffset, total: total, job: job, progressMade: &progressMade)
                try await place(&job, name: name, size: size)
                return
            }
        }
    }

    /// Sends the request, following up to `maxRedirects` http(s) redirects.
    private func request(_ job: TransferJob, offset: Int64) async throws -> (HTTPClientResponse, String) {
        var url = job.url
        lazy var originalHost = URLComponents(string: job.url)?.host?.lowercased()
        for _ in 0...configuration.maxRedirects {
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            request.headers.add(name: "User-Agent", value: configuration.userAgent)
            request.headers.add(name: "Accept-Encoding", value: "identity")
            let sameHost = url == job.url || URLComponents(string: url)?.host?.lowercased() == originalHost
            for header in job.headers {
                // Credentials are not handed to another host a redirect points at (as curl does).
                if !sameHost, ["authorization", "cookie", "proxy-authorization"].contains(header.name.lowercased()) { continue }
                request.headers.replaceOrAdd(name: header.name, value: header.value)
            }
            if offset > 0, job.rangesUsable {
                request.headers.add(name: "Range", value: "bytes=\(offset)-")
                if let validator = ResponseInterpreter.ifRangeValidator(etag: job.etag, lastModified: job.lastModified) {
                    request.headers.add(name: "If-Range", value: validator)
                }
            }
            let response = try await pool.client(for: url).execute(request, deadline: .now() + .hours(24 * 365))
            let status = Int(response.status.code)
            guard [301, 302, 303, 307, 308].contains(status) else { return (response, url) }
            guard let location = response.headers.first(name: "location"), !location.isEmpty else {
                throw TransferError.permanent("redirect without a location (HTTP \(status))")
            }
            guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteURL,
                  let scheme = next.scheme?.lowercased() else {
                throw TransferError.permanent("redirect to an invalid location")
            }
            guard DownloadURL.supportedSchemes.contains(scheme) else {
                throw TransferError.permanent("redirect to an unsupported scheme '\(TerminalText.sanitize(scheme))' refused")
            }
            url = next.absoluteString
        }
        throw TransferError.permanent("too many redirects (more than \(configuration.maxRedirects))")
    }

    private func claimName(_ job: inout TransferJob, head: ResponseHead, finalURL: String, total: Int64?) async throws -> String {
        if let name = job.fileName { return name }
        let suggestion = job.requestedName ?? FileNaming.suggestedName(contentDisposition: head["content-disposition"], url: finalURL)
        guard let name = await engine.transferClaimName(job.id, job.generation, suggestion, total: total) else { throw CancellationError() }
        job.fileName = name
        return name
    }

    /// Writes the body at `offset`…, reporting progress; returns the final size.
    private func stream(
        _ body: HTTPClientResponse.Body, into path: String, from offset: Int64, total: Int64?, job: TransferJob, progressMade: inout Bool
    ) async throws -> Int64 {
        let part = try PartFile(path: path, truncate: offset == 0)
        defer { part.close() }
        if offset > 0 { try part.truncate(to: offset) }
        var position = offset
        var lastReport = Monotonic.seconds()
        var reported = false
        for try await buffer in body {
            var writeError: FileError?
            do { try part.write(buffer, at: position) } catch { writeError = error }
            if let writeError {
                guard writeError.isDiskFull else { throw writeError }
                let shortfall = total.map { max(1, $0 - position - (DiskSpace.available(at: job.directory) ?? 0)) }
                throw TransferError.diskFull(shortfall: shortfall)
            }
            position += Int64(buffer.readableBytes)
            progressMade = true
            let wait = throttle.consume(buffer.readableBytes)
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
            let now = Monotonic.seconds()
            if now - lastReport >= configuration.progressInterval {
                lastReport = now
                reported = true
                await engine.transferProgress(job.id, job.generation, received: position)
            }
        }
        try Task.checkCancellation()
        // A body that arrived within one progress interval goes straight to "finished" (which
        // carries the size): with many small files that is one engine call less per file.
        if reported { await engine.transferProgress(job.id, job.generation, received: position) }
        if let total, position < total {
            throw TransferError.transient("the connection closed early (\(position) of \(total) bytes)")
        }
        try part.sync()
        return position
    }

    /// Verifies the checksum, then moves the `.part` to a free final name.
    private func place(_ job: inout TransferJob, name: String, size: Int64) async throws {
        let part = partPath(job, name)
        if let expected = job.sha256 {
            let actual = try FileChecksum.sha256(path: part)
            if actual != expected.lowercased() {
                unlink(part)
                throw TransferError.permanent("checksum mismatch: expected sha256 \(expected), got \(actual)")
            }
        }
        var finalName = name
        while true {
            switch FinalPlacement.move(part, to: job.directory + "/" + finalName) {
            case .placed:
                AtomicFile.syncDirectory(job.directory)
                await engine.transferEnded(job.id, job.generation, .finished(fileName: finalName, size: size))
                return
            case .nameTaken:
                guard let next = await engine.transferClaimName(job.id, job.generation, name, total: size, keepingPart: part) else { throw CancellationError() }
                finalName = next
            case .failed(let error):
                throw error
            }
        }
    }

    private func partPath(_ job: TransferJob, _ name: String) -> String { job.directory + "/" + name + ".part" }

    /// The content coding of the body, nil for none or identity.
    static func contentCoding(_ head: ResponseHead) -> String? {
        guard let coding = head["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased(), !coding.isEmpty, coding != "identity" else { return nil }
        return coding
    }

    static func resumable(_ head: ResponseHead, startOver: StartOverReason?) -> Bool? {
        if head.status == 206 { return true }
        if startOver == .rangesIgnored { return false }
        switch head["accept-ranges"]?.lowercased() {
        case "bytes": return true
        case "none": return false
        default: return nil
        }
    }
}
