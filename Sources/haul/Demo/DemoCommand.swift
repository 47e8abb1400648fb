import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulStore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Try haul without the internet: serves generated files on loopback and opens the UI with them queued.",
        discussion: "Uses a throw-away state file and download directory under /tmp; your own list is not touched."
    )

    @Option(name: .long, help: "How many downloads to queue.")
    var count = 24

    @Option(
        name: .long,
        help: ArgumentHelp("Per-download speed limit of the demo server, e.g. 300K or 1M.", valueName: "rate"))
    var rate = "400K"

    func run() async throws {
        try TUIApp.requireTerminal()
        guard let bytesPerSecond = Formatting.parseSize(rate), bytesPerSecond > 0 else {
            throw InputError("--rate takes a size such as 300K or 1M").reported()
        }
        guard (1...500).contains(count) else { throw InputError("--count must be between 1 and 500").reported() }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("haul-demo-\(getpid())").path
        let downloadDirectory = base + "/Downloads"
        try FileManager.default.createDirectory(atPath: downloadDirectory, withIntermediateDirectories: true)

        let files = Self.catalogue(count: count)
        let server = try DemoServer(files: files, bytesPerSecond: Int(bytesPerSecond))
        defer { server.stop() }

        var configuration = EngineConfiguration(statePath: base + "/state.json")
        configuration.retryPolicy.maxRetries = 1
        let engine = try Engine(configuration: configuration)
        try await engine.perform(.setConcurrency(4))
        for file in files {
            try await engine.perform(.add([DownloadRequest(url: server.url(file.path), directory: downloadDirectory)]))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DOWNLOAD_DIR"] = downloadDirectory
        await engine.start()
        // The demo server ends with this process, so nothing is offered to go on in the background.
        _ = try await TUIApp.present(
            inbox: UIInbox(), environment: environment,
            startMessage: "demo: \(files.count) downloads from 127.0.0.1:\(server.port) into \(downloadDirectory)",
            asksToKeepRunning: false
        ) { engine }
        await engine.shutdown()
        Console.out("demo files are in \(downloadDirectory)")
    }

    /// A mix of sizes and names, including wide (CJK) names and two broken links.
    static func catalogue(count: Int) -> [DemoServer.File] {
        let names = [
            "debian-12.9.0-amd64-netinst.iso", "ubuntu-24.04-desktop.iso", "linux-6.12.tar.xz", "swift-6.3.1.tar.gz",
            "podcast-episode-142.mp3", "holiday-photos.zip", "dataset-2026.csv.gz", "firmware.bin", "report.pdf",
            "lecture-07.mp4", "backup-2026-11-20.tar", "fonts.zip",
        ]
        var files: [DemoServer.File] = []
        for i in 0..<count {
            switch i {
            case 3:
                files.append(
                    .init(
                        path: "/doc-\(i)", size: 2_500_000 + i * 1000,
                        disposition:
                            "attachment; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%AE%E8%B3%87%E6%96%99.pdf"))
            case 7: files.append(.init(path: "/expired-\(i).zip", size: 0, status: 410))
            case 11: files.append(.init(path: "/missing-\(i).iso", size: 0, status: 404))
            default:
                let name = names[i % names.count]
                let size = [800_000, 3_000_000, 6_000_000, 12_000_000][i % 4] + i * 4096
                files.append(.init(path: "/\(i)/\(name)", size: size))
            }
        }
        return files
    }
}
