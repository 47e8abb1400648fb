import FoundationEssentials
import Glibc

/// Frame timings for the benchmark (`HAUL_TRACE=path`): kept in memory, written at exit.
/// Each frame's wall time and the UI thread's CPU time within it: on a busy machine the
/// difference is time the thread was preempted, not work it did. For the slowest frame by
/// wall time and by CPU time it also keeps what the frame did and how much CPU time the host
/// took from this virtual machine meanwhile ("steal": the guest counts it as its threads' own).
struct FrameTrace {
    /// The clocks a frame is measured with.
    struct Clocks {
        var wall: Double
        var threadCPU: Double
        /// The machine's steal time so far, in seconds (all CPUs; 10 ms steps).
        var steal: Double
        /// Page faults of the calling thread so far: on a VM that hands free memory back to its
        /// host, touching fresh memory costs a fault in the host, counted as the thread's CPU.
        var faults: Int
        /// The calling thread's context switches so far: voluntary ones are waits (a lock, a
        /// write to the terminal that blocks), involuntary ones preemptions. A frame whose wall
        /// time is far above its CPU time was one or the other.
        var waits: Int
        var preemptions: Int

        static func now() -> Clocks {
            let usage = Self.threadUsage()
            return Clocks(
                wall: ProcessClock.seconds(), threadCPU: ThreadCPUTime.seconds(),
                steal: Self.stealSeconds(),
                faults: usage.ru_minflt + usage.ru_majflt, waits: usage.ru_nvcsw, preemptions: usage.ru_nivcsw
            )
        }

        private static func threadUsage() -> rusage {
            let rusageThread: Int32 = 1 // RUSAGE_THREAD (Linux): Swift's Glibc module leaves it out
            var usage = rusage()
            guard getrusage(rusageThread, &usage) == 0 else { return rusage() }
            return usage
        }

        /// The `steal` column of the `cpu` line of /proc/stat; 0 where there is none.
        private static func stealSeconds() -> Double {
            guard let file = fopen("/proc/stat", "r") else { return 0 }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 512)
            guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
            let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: " ")
            guard fields.first == "cpu", fields.count > 8, let ticks = Double(fields[8]) else { return 0 }
            return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }

    private struct Slowest {
        var seconds = -1.0
        var note = "-"

        mutating func offer(_ seconds: Double, _ note: @autoclosure () -> String) {
            guard seconds > self.seconds else { return }
            self.seconds = seconds
            self.note = note()
        }
    }

    let path: String?
    private var durations: [Double] = []
    private var cpuTimes: [Double] = []
    private var firstFrame: Double?
    private var listFrame: Double?
    private var slowestWall = Slowest()
    private var slowestCPU = Slowest()

    init(path: String?) {
        self.path = path
    }

    var isOn: Bool { path != nil }

    /// One frame, measured from `start` to `end`; `what` says what it did (no spaces).
    mutating func frame(from start: Clocks, to end: Clocks, showsList: Bool, what: String) {
        guard path != nil else { return }
        if firstFrame == nil { firstFrame = end.wall - ProcessClock.start }
        if showsList, listFrame == nil { listFrame = end.wall - ProcessClock.start }
        let (wall, cpu) = (end.wall - start.wall, end.threadCPU - start.threadCPU)
        durations.append(wall)
        cpuTimes.append(cpu)
        let note =
            "\(what),cpu_ms=\(Self.ms(cpu)),steal_ms=\(Self.ms(end.steal - start.steal))"
            + ",faults=\(end.faults - start.faults)"
            + ",waits=\(end.waits - start.waits),preemptions=\(end.preemptions - start.preemptions)"
        slowestWall.offer(wall, note)
        slowestCPU.offer(cpu, note)
    }

    func write() {
        guard let path else { return }
        func percentiles(_ values: [Double]) -> (p50: Double?, p99: Double?, max: Double?) {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return (nil, nil, nil) }
            return (
                sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))], sorted.last
            )
        }
        let wall = percentiles(durations)
        let cpu = percentiles(cpuTimes)
        let text =
            "first_frame_ms=\(Self.ms(firstFrame)) list_ms=\(Self.ms(listFrame)) frames=\(durations.count) "
            + "p50_ms=\(Self.ms(wall.p50)) p99_ms=\(Self.ms(wall.p99)) max_ms=\(Self.ms(wall.max)) "
            + "cpu_p50_ms=\(Self.ms(cpu.p50)) cpu_p99_ms=\(Self.ms(cpu.p99)) cpu_max_ms=\(Self.ms(cpu.max)) "
            + "slowest=\(slowestWall.note) slowest_cpu=\(slowestCPU.note)\n"
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Seconds as milliseconds with three decimals: `12.345`.
    private static func ms(_ v: Double?) -> String {
        guard let v else { return "-" }
        let microseconds = Int((v * 1_000_000).rounded())
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
