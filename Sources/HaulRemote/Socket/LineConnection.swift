import Dispatch
import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One socket carrying newline-delimited messages: a thread reads and hands over whole lines;
/// writes go through a serial queue so a slow peer never blocks the sender. A peer that lets
/// too much pile up (or sends an endless line) is disconnected.
final class LineConnection: Sendable {
    static let maxLineLength = 512 << 20
    static let maxPendingBytes = 512 << 20

    private let fd: Int32
    private let writer: DispatchQueue
    private let pending = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)

    init(fd: Int32, label: String) {
        self.fd = fd
        writer = DispatchQueue(label: "haul.socket.\(label)")
    }

    /// Starts the reading thread. `onLine` returns the length of the next line when it knows it
    /// (room is made for it at once). `onClose` runs once, after the descriptor is closed.
    func start(onLine: @escaping @Sendable ([UInt8]) -> Int?, onClose: @escaping @Sendable () -> Void) {
        DetachedThread.start { [self] in
            readLoop(onLine)
            close()
            writer.sync {}
            Glibc.close(fd)
            onClose()
        }
    }

    /// Queues one line (the bytes end with a newline already).
    func send(_ bytes: [UInt8]) {
        guard !closed.load(ordering: .acquiring) else { return }
        if pending.add(bytes.count, ordering: .relaxed).newValue > Self.maxPendingBytes {
            close()
            return
        }
        writer.async { [self] in
            defer { pending.subtract(bytes.count, ordering: .relaxed) }
            guard !closed.load(ordering: .acquiring) else { return }
            if !UnixSocket.writeAll(fd, bytes) { close() }
        }
    }

    /// Ends the connection; the reading thread notices and closes the descriptor.
    /// Closes once the lines queued so far are written.
    func closeWhenSent() {
        writer.async { [self] in close() }
    }

    func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) {
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    private func readLoop(_ onLine: ([UInt8]) -> Int?) {
        var framer = LineFramer(maxLineLength: Self.maxLineLength)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            framer.append(buffer[..<n])
            do {
                while let line = try framer.nextLine() {
                    if let next = onLine(line) { framer.expect(lineOf: next) }
                }
            } catch {
                return
            }
        }
    }
}
