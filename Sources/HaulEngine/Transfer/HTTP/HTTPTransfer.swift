import HaulCore
import HaulHTTP
import HaulStore

/// A download over HTTP or HTTPS: ``TransferRunner``'s attempts and retries on one connection,
/// or in pieces over several (``SegmentedTransfer``), from the download's URL and its mirrors.
struct HTTPTransfer: Transfer {
    let job: TransferJob
    let runner: TransferRunner

    /// The transfer for `start`'s download, with the saved settings its requests follow.
    init(_ start: TransferStart, settings: StateDocument.Settings, configuration: EngineConfiguration) {
        let download = start.download
        job = TransferJob(
            id: download.id, generation: start.generation, queueOrder: download.queueOrder,
            directory: download.directory, requestedName: download.requestedName,
            fileName: download.fileName, checksum: download.checksum,
            cookieFile: download.cookieFile ?? settings.cookieFile,
            target: TransferTarget(
                url: download.url, headers: download.headers, etag: download.etag, lastModified: download.lastModified,
                proxy: download.ownProxy, proxies: settings.proxies ?? ProxySettings(),
                hosts: settings.hosts ?? HostSettings()),
            totalBytes: download.totalBytes, segments: download.segments, sourceURL: download.finalURL,
            connections: start.connections, throttle: start.throttle, linkUnchecked: download.linkUnchecked,
            mirrors: DownloadSource.forNewRun(download.sources), pieceHashes: download.pieceHashes,
            ignoresMirrorHeaders: download.ignoresMirrorHeaders
        )
        runner = TransferRunner(
            reports: start.reports, resources: start.resources, throttle: start.throttle, configuration: configuration)
    }

    func run() async {
        await runner.run(job)
    }
}
