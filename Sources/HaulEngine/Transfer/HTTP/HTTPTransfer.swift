import HaulCore
import HaulHTTP
import HaulStore

/// A download over HTTP or HTTPS: ``TransferRunner``'s attempts and retries on one connection,
/// or in pieces over several (``SegmentedTransfer``), from the download's URL and its mirrors.
struct HTTPTransfer: Transfer {
    let job: TransferJob
    let runner: TransferRunner
    /// The cookies.txt file its requests carry the cookies of, read when the run starts.
    let cookieFile: String?

    /// The transfer for `start`'s download, with the saved settings its requests follow.
    init(_ start: TransferStart, settings: StateDocument.Settings, configuration: EngineConfiguration) {
        let download = start.download
        job = TransferJob(start, proxies: settings.proxies ?? ProxySettings(), hosts: settings.hosts ?? HostSettings())
        cookieFile = download.cookieFile ?? settings.cookieFile
        runner = TransferRunner(
            reports: start.reports, resources: start.resources, throttle: start.throttle, configuration: configuration)
    }

    func run() async {
        await runner.run(job, cookieFile: cookieFile)
    }
}
