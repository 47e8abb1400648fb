import AsyncHTTPClient
import Foundation
import HaulCore
import HaulStore
import NIOCore
import NIOHTTP1
import NIOPosix

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
                    let delay = await engine.transferWillRetry(
                        job.id, job.generation, failure, madeProgress: progressMade)
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
        // The `.part`'s size, looked up once: within an attempt only a restart changes it.
        var partSize = job.fileName.flatMap { PartFile.size(at: partPath(job, $0)) }
        // What the download had on disk before this attempt. Progress is getting past it: a
        // server that ignores ranges and cuts the body at the same point every time made each
        // attempt "progress" from 0 after it started over, and the retries never ran out.
        let had = partSize ?? 0
        while true {
            var offset: Int64 = 0
            if job.rangesUsable, let size = partSize { offset = size }

            let (response, finalURL) = try await request(job, offset: offset)
            // Unless `stream` takes the body, it is dropped when this attempt ends.
            var bodyTaken = false
            defer { if !bodyTaken { response.drop() } }
            let head = response.head
            let action = ResponseInterpreter.interpret(
                head, requestedOffset: offset, previousETag: job.etag, previousLastModified: job.lastModified)

            switch action {
            case .redirect:
                preconditionFailure("redirects are followed in request(_:offset:)")
            case .fail(let reason, let transient, let retryAfter):
                throw TransferError(description: reason, isTransient: transient, retryAfter: retryAfter)
            case .restart(let reason):
                restarts += 1
                guard restarts <= 2 else { throw TransferError.transient(reason.rawValue) }
                if let name = job.fileName {
                    try PartFile(path: partPath(job, name), truncate: true).close()
                    partSize = 0
                }
                await engine.transferNotice(job.id, job.generation, reason.rawValue)
                continue
            case .alreadyComplete(let total):
                guard let name = job.fileName else {
                    throw TransferError.permanent("server says complete but nothing was downloaded")
                }
                try await place(
                    &job, name: name, size: total,
                    inMemory: engine.volumes.volume(holding: job.directory, writing: nil)?.inMemory ?? false)
                return
            case .write(let writeOffset, var total, let startOver):
                var resumable = Self.resumable(head, startOver: startOver)
                if let coding = Self.contentCoding(head) {
                    guard ["gzip", "x-gzip", "deflate"].contains(coding) else {
                        throw TransferError.permanent(
                            "the server sent the file encoded as '\(TerminalText.sanitize(coding))', which haul "
                                + "cannot decode"
                        )
                    }
                    if writeOffset > 0 {
                        job.rangesUsable = false
                        restarts += 1
                        guard restarts <= 2 else {
                            throw TransferError.transient("encoded response to a range request")
                        }
                        continue
                    }
                    // The length on the wire is not the file's length, and encoded ranges can't be resumed.
                    job.rangesUsable = false
                    total = nil
                    resumable = false
                }
                let volume = engine.volumes.volume(holding: job.directory, writing: total.map { $0 - writeOffset })
                if let total, let shortfall = volume?.shortfall(writing: total - writeOffset) {
                    throw TransferError.diskFull(shortfall: shortfall)
                }
                // A new name is looked up on disk here, not on the engine's actor.
                let naming: ResponseInfo.Name
                var freeOnDisk: String?
                if let known = job.fileName {
                    naming = .known(known)
                } else {
                    let suggested =
                        job.requestedName
                        ?? FileNaming.suggestedName(contentDisposition: head["content-disposition"], url: finalURL)
                    naming = .suggested(suggested)
                    if Engine.isFinalNameFree(suggested, in: job.directory) { freeOnDisk = suggested }
                }
                let info = ResponseInfo(
                    name: naming,
                    freeOnDisk: freeOnDisk,
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
                guard var name = await engine.transferBegan(job.id, job.generation, info) else {
                    throw CancellationError()
                }
                let part: PartFile
                if case .suggested(let suggested) = naming {
                    let created = try await createPart(job, name: name, suggestion: suggested, total: total)
                    part = created.part
                    name = created.name
                } else {
                    part = try PartFile(path: partPath(job, name), truncate: writeOffset == 0)
                    if writeOffset > 0 { try part.truncate(to: writeOffset) }
                }
                job.fileName = name
                bodyTaken = true
                let size = try await stream(
                    response, into: part, from: writeOffset, total: total, job: job, had: had,
                    progressMade: &progressMade)
                try await place(&job, name: name, size: size, inMemory: volume?.inMemory ?? false)
                return
            }
        }
    }

    /// Sends the request, following up to `maxRedirects` http(s) redirects; returns once the final
    /// response's head has arrived.
    private func request(_ job: TransferJob, offset: Int64) async throws -> (Response, String) {
        var url = job.url
        let original = URLParts(job.url)
        for _ in 0...configuration.maxRedirects {
            var headers = HTTPHeaders()
            headers.add(name: "User-Agent", value: configuration.userAgent)
            headers.add(name: "Accept-Encoding", value: "identity")
            let parts = url == job.url ? original : URLParts(url)
            let sameHost = url == job.url || (parts != nil && parts?.host.lowercased() == original?.host.lowercased())
            for header in job.headers {
                // Credentials are not handed to another host a redirect points at (as curl does).
                if !sameHost, ["authorization", "cookie", "proxy-authorization"].contains(header.name.lowercased()) {
                    continue
                }
                headers.replaceOrAdd(name: header.name, value: header.value)
            }
            // `http://user:password@host/…` is HTTP Basic authentication (kept across redirects on the
            // same host), unless a header says otherwise.
            if let credentials = parts?.credentials ?? (sameHost ? original?.credentials : nil),
                !headers.contains(name: "authorization")
            {
                headers.add(
                    name: "Authorization",
                    value: "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString())
            }
            if offset > 0, job.rangesUsable {
                headers.add(name: "Range", value: "bytes=\(offset)-")
                if let validator = ResponseInterpreter.ifRangeValidator(etag: job.etag, lastModified: job.lastModified)
                {
                    headers.add(name: "If-Range", value: validator)
                }
            }
            let response = try await send(url, parts: parts, headers: headers)
            let status = response.head.status
            guard [301, 302, 303, 307, 308].contains(status) else { return (response, url) }
            response.drop()
            guard let location = response.head["location"], !location.isEmpty else {
                throw TransferError.permanent("redirect without a location (HTTP \(status))")
            }
            guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteURL,
                let scheme = next.scheme?.lowercased()
            else {
                throw TransferError.permanent("redirect to an invalid location")
            }
            guard DownloadURL.supportedSchemes.contains(scheme) else {
                throw TransferError.permanent(
                    "redirect to an unsupported scheme '\(TerminalText.sanitize(scheme))' refused")
            }
            url = next.absoluteString
        }
        throw TransferError.permanent("too many redirects (more than \(configuration.maxRedirects))")
    }

    /// A request whose response head has arrived; its body waits for the task to choose.
    private struct Response {
        /// The head, read once into the form the engine's rules take.
        let head: ResponseHead
        let sink: ResponseSink
        let cancel: @Sendable () -> Void

        init(_ received: HTTPResponseHead, sink: ResponseSink, cancel: @escaping @Sendable () -> Void) {
            head = ResponseHead(
                status: Int(received.status.code), headers: received.headers.map { ($0.name, $0.value) })
            self.sink = sink
            self.cancel = cancel
        }

        /// Leaves the body unwritten: a small one is read and dropped so the connection can serve
        /// the next request, a larger one ends the request. Does nothing once the body is written.
        func drop() {
            if let length = head.contentLength, length <= 64 * 1024 {
                sink.discard()
            } else {
                cancel()
            }
        }
    }

    /// Sends one GET: plain HTTP without a proxy on `CleartextHTTPClient`, the rest (and a plain
    /// response whose body is encoded, which that client does not decode) on AsyncHTTPClient.
    private func send(_ url: String, parts: URLParts?, headers: HTTPHeaders) async throws -> Response {
        let throttle = throttle
        let progressInterval = configuration.progressInterval
        if let (client, target) = pool.cleartextClient(for: url, parts: parts) {
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.uri)
            if !headers.contains(name: "host") { head.headers.add(name: "Host", value: target.hostHeader) }
            head.headers.add(contentsOf: headers)
            let exchange = try await client.execute(head, to: target) { loop in
                ResponseSink(loop: loop, throttle: throttle, progressInterval: progressInterval)
            }
            let response = Response(exchange.head, sink: exchange.sink, cancel: exchange.cancel)
            guard Self.contentCoding(response.head) != nil else { return response }
            response.drop()
        }
        // The transfer's own lane when it runs on one (see `TransferLanes`).
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let sink = ResponseSink(loop: loop, throttle: throttle, progressInterval: progressInterval)
        let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        let task = pool.client(for: url).execute(request: request, delegate: sink, eventLoop: .delegate(on: loop))
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await sink.responseHead()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw TransferError.connectFailure(error, url: url, proxy: configuration.proxies.endpoint(for: url))
                ?? error
        }
        return Response(head, sink: sink, cancel: { task.cancel() })
    }

    /// Journals the claim of a new name, then creates its `.part`, exclusively: a crash can
    /// never leave a `.part` the state does not know, and a `.part` already there by that name
    /// (another program's, or a download's of another state file) is never written into; the
    /// engine then claims the next free name based on `suggestion`. The transfer writes the
    /// journal, so the engine's actor does not wait on the file system.
    private func createPart(_ job: TransferJob, name claimed: String, suggestion: String, total: Int64?) async throws
        -> (part: PartFile, name: String)
    {
        var name = claimed
        while true {
            engine.journal.append(.init(id: job.id, fileName: name, totalBytes: total, finished: false))
            do {
                let part = try PartFile(path: partPath(job, name), truncate: true, exclusive: true)
                return (part, name)
            } catch {
                guard error.isTaken else { throw error }
                guard let next = await engine.transferClaimName(job.id, job.generation, suggestion, total: total) else {
                    throw CancellationError()
                }
                name = next
            }
        }
    }

    /// Has the body written into `part` from `offset` (on the event loop, see `ResponseSink`)
    /// while passing its progress on to the engine; returns the final size. Progress is made
    /// when the file gets past `had` bytes, what it held before the attempt (`offset` is that or 0).
    private func stream(
        _ response: Response, into part: PartFile, from offset: Int64, total: Int64?, job: TransferJob, had: Int64,
        progressMade: inout Bool
    ) async throws -> Int64 {
        // Closed only after the request has ended: no write can come later.
        defer { part.close() }
        // Dropping written pages pays off for large bodies; a small one is done before it matters.
        let large = total.map { $0 - offset >= WriteBehind.defaultChunk } ?? true
        var reported = false
        let size: Int64
        do {
            switch try response.sink.startWriting(to: part.writer(dropBehind: large), at: offset, total: total) {
            case .streaming(let position) where position > offset:
                // What was read ahead is on disk: the engine hears of it now, not after the next
                // part (which a speed cap may hold back for a while).
                reported = true
                await engine.transferProgress(job.id, job.generation, received: position)
            case .finished(let size, let capWait) where capWait > 0:
                reported = true
                await engine.transferProgress(job.id, job.generation, received: size)
                try await Task.sleep(for: .milliseconds(Int64(capWait * 1000)))
            default:
                break
            }
            size = try await withTaskCancellationHandler {
                while true {
                    switch try await response.sink.nextEvent() {
                    case .progress(let position):
                        reported = true
                        await engine.transferProgress(job.id, job.generation, received: position)
                    case .finished(let size):
                        return size
                    }
                }
            } onCancel: {
                response.cancel()
            }
        } catch {
            progressMade = response.sink.position > had
            throw error
        }
        progressMade = size > had
        // A body that arrived within one progress interval goes straight to "finished" (which
        // carries the size): with many small files that is one engine call less per file.
        if reported { await engine.transferProgress(job.id, job.generation, received: size) }
        try Task.checkCancellation()
        if let total, size < total {
            throw TransferError.transient("the connection closed early (\(size) of \(total) bytes)")
        }
        return size
    }

    /// Verifies the checksum, then makes the `.part` durable and moves it to a free final name,
    /// and makes that durable too: a file is never called finished before it is on disk.
    ///
    /// `inMemory`: the directory is on tmpfs or ramfs, where `fsync` has nothing to write. The
    /// rename alone is a few microseconds there, so it is done right here: with many small files
    /// the trip to a worker thread and back cost more than the rest of the placing.
    private func place(_ job: inout TransferJob, name: String, size: Int64, inMemory: Bool) async throws {
        let part = partPath(job, name)
        if let expected = job.sha256 {
            let actual = try await FileWorkers.run { try FileChecksum.sha256(path: part) }
            if actual != expected.lowercased() {
                unlink(part)
                throw TransferError.permanent("checksum mismatch: expected sha256 \(expected), got \(actual)")
            }
        }
        var finalName = name
        while true {
            let (directory, final) = (job.directory, Download.path(of: finalName, in: job.directory))
            // Otherwise one trip to a worker thread for the lot. After a name was taken the fsync
            // finds nothing left to write.
            let placement =
                inMemory
                ? FinalPlacement.move(part, to: final)
                : try await FileWorkers.run {
                    try PartFile.sync(path: part)
                    let placement = FinalPlacement.move(part, to: final)
                    if case .placed = placement { AtomicFile.syncDirectory(directory) }
                    return placement
                }
            switch placement {
            case .placed:
                engine.journal.appendSoon(.init(id: job.id, fileName: finalName, totalBytes: size, finished: true))
                await engine.transferEnded(job.id, job.generation, .finished(fileName: finalName, size: size))
                return
            case .nameTaken:
                guard
                    let next = await engine.transferClaimName(
                        job.id, job.generation, name, total: size, keepingPart: part)
                else { throw CancellationError() }
                engine.journal.append(.init(id: job.id, fileName: next, totalBytes: size, finished: false))
                finalName = next
            case .failed(let error):
                throw error
            }
        }
    }

    private func partPath(_ job: TransferJob, _ name: String) -> String {
        Download.path(of: name, in: job.directory, suffix: ".part")
    }

    /// The content coding of the body, nil for none or identity.
    static func contentCoding(_ head: ResponseHead) -> String? {
        guard let coding = head["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased(), !coding.isEmpty,
            coding != "identity"
        else { return nil }
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
