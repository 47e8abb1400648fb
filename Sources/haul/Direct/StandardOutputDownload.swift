import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import Synchronization

/// `haul URL -o -` (wget's `-O -`, `-qO-`; curl's `-o -`): the file's bytes on standard output,
/// for a pipe (`haul -qO- URL | tar xz`).
///
/// The download is an ordinary one (the same add path, netrc, proxies and retries) with one
/// connection, into a private folder that ``StandardOutputCopy`` follows. Bytes that went into
/// a pipe cannot be taken back, so such a download does not resume: when the command ends, for
/// whatever reason, the download leaves the state and its folder is deleted.
struct StandardOutputDownload {
    let url: String
    let options: DownloadOptions
    let timeouts: CommandTimeouts
    let deadline: CommandDeadline?
    let stateOptions: StateOptions
    let hooks: ProcessHooks

    /// The one URL `-o -` can take: a file over http or https, which one connection writes from
    /// its start (a torrent's pieces and a Metalink's come in any order).
    static func check(_ urls: [String]) throws(InputError) {
        guard urls.count == 1, let url = urls.first else {
            throw InputError("-o - (standard output) takes one URL")
        }
        let lowered = url.lowercased()
        let kept = lowered.split(separator: "?").first.map(String.init) ?? lowered
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
            !kept.hasSuffix(".torrent"), !kept.hasSuffix(".meta4"), !kept.hasSuffix(".metalink")
        else {
            throw InputError(
                "-o - (standard output) takes an http or https URL of one file; a torrent's or a Metalink's pieces "
                    + "come in any order")
        }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN) // a reader that leaves is an error from write, not the end of haul
        Console.outputIsTheBody.withLock { $0 = true }
        let folder = try Self.makePrivateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = options
        options.outputWords = []
        options.directory = folder
        options.connections = 1
        let copy = StandardOutputCopy(folder: folder)
        let copying = Task { await copy.run() }
        var failure: (any Error)?
        do {
            try await DirectDownload(
                urls: [url], options: options, concurrency: nil, timeouts: timeouts, quiet: true, brief: true,
                noClobber: false, deadline: deadline, stateOptions: stateOptions, hooks: hooks
            ).run()
        } catch {
            failure = error
        }
        copy.end()
        let outcome = await copying.value
        await forget(folder)
        switch outcome {
        case .copied:
            if let failure { throw failure }
        case .readerGone:
            throw ExitStatus.downloadFailed
        case .startedOver(let sent):
            Console.error(
                "the download started over after \(Formatting.bytes(sent)) had gone to standard output; run the "
                    + "command again")
            throw ExitStatus.downloadFailed
        case .notOneFile:
            if let failure { throw failure }
            Console.error("the download is not one file; -o - (standard output) takes one")
            throw ExitStatus.downloadFailed
        case .failed(let reason):
            Console.error(reason)
            throw ExitStatus.downloadFailed
        }
    }

    /// A new folder of this user's alone under `$TMPDIR` (else /tmp).
    private static func makePrivateFolder() throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/haul-stdout-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            Console.error("cannot make a folder under \(TerminalText.sanitize(base)) for the download")
            throw ExitStatus.downloadFailed
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Takes the download out of the state, wherever it ran: nothing of it can resume.
    private func forget(_ folder: String) async {
        do {
            let session = try await EngineAccess.session(stateOptions)
            let ids = try await session.snapshot().downloads.all.filter { $0.directory == folder }.map(\.id)
            guard !ids.isEmpty else { return }
            try await session.perform(.remove(.ids(ids), deleteFiles: true))
            try await session.save()
        } catch {
            let reason = (error as? InputError)?.message ?? "\(error)"
            Console.warn("the download for standard output stays in the list ('haul rm' removes it): \(reason)")
        }
    }
}
