import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Speed limits against nginx on loopback, unthrottled: the rate haul writes at, sampled as
/// the engine reports it, holds within 5 % of the limit over every 5-second window.
///
/// What is measured is the limiter, so the files go to memory (/dev/shm, as the bench's speed
/// limit rows do) and the disk is made quiet first: a disk busy writing back what earlier tests
/// wrote stalls the writes for longer than the bucket's credit and reads as a low rate.
final class SpeedLimitEngineTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!
    var memory: TestDirectory?

    override func setUp() async throws {
        try await super.setUp()
        sync()
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            memory = TestDirectory("haul-limit", in: "/dev/shm")
            downloadDirectory = memory?.path
        }
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
        // Sparse: what is measured is the rate, and a gigabyte of zeros costs no disk to serve.
        XCTAssertTrue(FileManager.default.createFile(atPath: www + "/large.bin", contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: www + "/large.bin"))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
        memory = nil
    }

    /// An engine that reports progress often enough for 5-second windows to be measured to 1 %.
    func limitedEngine(_ tune: (inout EngineConfiguration) -> Void = { _ in }) throws -> Engine {
        try makeEngine {
            $0.progressInterval = .seconds(0.02)
            tune(&$0)
        }
    }

    /// Bytes received by `ids` (all downloads when nil) as the engine reports them, every 25 ms
    /// for `seconds`.
    func samples(_ engine: Engine, _ ids: Set<DownloadID>? = nil, for seconds: Double) async throws
        -> [(time: Double, bytes: Int64)]
    {
        var result: [(Double, Int64)] = []
        let start = SystemClock().now.seconds
        while SystemClock().now.seconds - start < seconds {
            let received = await engine.allDownloads.filter { ids?.contains($0.id) ?? true }.reduce(0) {
                $0 + $1.receivedBytes
            }
            result.append((SystemClock().now.seconds, received))
            try await Task.sleep(for: .milliseconds(25))
        }
        return result
    }

    /// The rate over every 5-second window that starts a quarter second after the last.
    ///
    /// A window starts and ends only at a sample whose count had just changed: on a loaded
    /// machine a progress report can come late, and a count read before it would date the bytes
    /// that report brings to the sample's time, and read as a rate over the limit.
    func windowRates(_ samples: [(time: Double, bytes: Int64)]) -> [Double] {
        let span = 5.0
        let fresh = samples.indices.dropFirst().filter { samples[$0].bytes != samples[$0 - 1].bytes }.map {
            samples[$0]
        }
        var rates: [Double] = []
        var nextStart = fresh.first?.time ?? 0
        for (i, a) in fresh.enumerated() where a.time >= nextStart {
            guard let b = fresh[i...].first(where: { $0.time - a.time >= span }) else { break }
            rates.append(Double(b.bytes - a.bytes) / (b.time - a.time))
            nextStart = a.time + 0.25
        }
        return rates
    }

    func assertWithin5Percent(
        _ rates: [Double], of limit: Int64, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(rates.isEmpty, what, file: file, line: line)
        let shown = rates.map { String(format: "%.3f", $0 / Double(limit)) }.joined(separator: " ")
        for rate in rates {
            XCTAssertEqual(
                rate / Double(limit), 1, accuracy: 0.05, "\(what): rate/limit per window: \(shown)", file: file,
                line: line)
        }
    }

    func addLarge(_ engine: Engine, count: Int) async throws -> [DownloadID] {
        var ids: [DownloadID] = []
        for i in 0..<count { ids.append(try await add(engine, nginx.url("large.bin"), name: "large-\(i).bin")) }
        return ids
    }

    /// Starts the downloads and waits until bytes flow, so the windows measure a demand.
    func startAndWaitForBytes(_ engine: Engine, _ ids: [DownloadID]) async throws {
        await engine.start()
        for id in ids { try await waitFor(engine, id) { $0.receivedBytes > 0 } }
        try await Task.sleep(for: .milliseconds(500))
    }

    func assertGlobalLimitHolds(_ limit: Int64, downloads count: Int) async throws {
        let engine = try limitedEngine()
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: limit)))
        let ids = try await addLarge(engine, count: count)
        try await startAndWaitForBytes(engine, ids)
        let rates = windowRates(try await samples(engine, for: 6))
        assertWithin5Percent(rates, of: limit, "\(count) download(s) under \(Formatting.rate(Double(limit)))")
        try await engine.perform(.remove(.all, deleteFiles: true))
        await engine.shutdown()
    }

    /// A low limit (taken in slices of each read), a middle one shared by three downloads, and a
    /// high one, in real time against nginx; every limit on one and on eight connections is in
    /// `make bench` (g), and the bucket's arithmetic is tested without a clock.
    func testAGlobalLimitHoldsLowForOneMiddleForThreeAndHighForOne() async throws {
        try await assertGlobalLimitHolds(1 << 20, downloads: 1)
        try await assertGlobalLimitHolds(8 << 20, downloads: 3)
        try await assertGlobalLimitHolds(64 << 20, downloads: 1)
    }

    func testALiveChangeTakesEffectWithinASecond() async throws {
        let engine = try limitedEngine()
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: 8 << 20)))
        let ids = try await addLarge(engine, count: 2)
        try await startAndWaitForBytes(engine, ids)
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: 2 << 20)))
        try await Task.sleep(for: .seconds(1))
        let slower = windowRates(try await samples(engine, for: 5.5))
        assertWithin5Percent(slower, of: 2 << 20, "from 1 s after lowering 8M to 2M")
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: 16 << 20)))
        try await Task.sleep(for: .seconds(1))
        let faster = windowRates(try await samples(engine, for: 5.5))
        assertWithin5Percent(faster, of: 16 << 20, "from 1 s after raising 2M to 16M")
    }

    func testADownloadsOwnLimitHoldsWhileTheOthersShareTheRest() async throws {
        let engine = try limitedEngine()
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: 8 << 20)))
        let ids = try await addLarge(engine, count: 3)
        try await engine.perform(.setDownloadSpeedLimit(.ids([ids[0]]), 1 << 20))
        try await startAndWaitForBytes(engine, ids)
        let all = try await samples(engine, for: 7)
        let own = windowRates(
            try await samples(engine, [ids[0]], for: 6))
        assertWithin5Percent(windowRates(all), of: 8 << 20, "all three under 8M")
        assertWithin5Percent(own, of: 1 << 20, "the one limited to 1M")
        let limited = await engine.download(ids[0])
        XCTAssertEqual(limited?.speedLimit, 1 << 20)
    }

    func testWithoutALimitNothingIsHeldBack() async throws {
        let engine = try limitedEngine()
        let ids = try await addLarge(engine, count: 1)
        await engine.start()
        let d = try await finished(engine, ids[0], timeout: 60)
        XCTAssertEqual(d.state, .finished)
        XCTAssertEqual(d.receivedBytes, 1 << 30)
    }
}
