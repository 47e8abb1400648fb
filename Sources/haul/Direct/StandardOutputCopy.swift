import Dispatch
import FoundationEssentials
import Glibc
import HaulEngine
import Synchronization

/// `haul URL -o -`: the one file of the download's private folder, written to standard output as
/// it grows, the `.part` first and then the finished file (a rename keeps the open file).
///
/// The download runs with one connection, so the file grows from its start and its size is what
/// is written; the copy also stops at the file's first hole. A byte is never written to the
/// reader twice or out of order. The copy runs on a
/// thread of its own: a slow reader blocks it, never one of Swift's cooperative threads.
final class StandardOutputCopy: Sendable {
    enum Outcome: Equatable {
        /// Every byte of the file went out.
        case copied
        /// The reader closed its end (`| head`).
        case readerGone
        /// The file became shorter than what was already written: the download started over.
        case startedOver(sent: Int64)
        /// The folder held no file, or more than one.
        case notOneFile
        /// Standard output or the file could not be written or read.
        case failed(String)
    }

    private let folder: String
    private let ended = Atomic<Bool>(false)
    /// How long the copy waits for the file to grow before it looks again.
    private static let pause: useconds_t = 20_000

    init(folder: String) { self.folder = folder }

    /// The download is over (finished, failed or stopped): what the file holds now goes out,
    /// then ``run()`` returns.
    func end() { ended.store(true, ordering: .releasing) }

    /// Copies until ``end()`` and the file's last byte.
    func run() async -> Outcome {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.copy()) }
        }
    }

    private func copy() -> Outcome {
        var fd: Int32 = -1
        defer { if fd >= 0 { close(fd) } }
        var sent = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            // Read before the copy: what was written before `end` is copied in this round.
            let last = ended.load(ordering: .acquiring)
            if last || fd < 0 {
                switch openFile() {
                case .none: break
                case .several: return .notOneFile
                case .file(let opened):
                    if fd >= 0, Self.sameFile(fd, opened) {
                        close(opened)
                    } else {
                        if fd >= 0 { close(fd) }
                        fd = opened
                    }
                }
            }
            if fd >= 0 {
                var info = stat()
                guard fstat(fd, &info) == 0 else { return .failed("cannot read the downloaded file") }
                if info.st_size < sent { return .startedOver(sent: Int64(sent)) }
                // Only up to the first hole: a file whose server made it a torrent or a Metalink
                // is written in pieces, and a hole is bytes not written yet, not zeros.
                let written = min(Int(ContiguousData.size(of: fd) ?? 0), info.st_size)
                while sent < written {
                    let n = pread(fd, buffer.baseAddress, min(buffer.count, written - sent), sent)
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { return .failed("cannot read the downloaded file") }
                    guard FileHandleWriter.stdout(UnsafeRawBufferPointer(rebasing: buffer[..<n])) else {
                        if errno == EPIPE {
                            // No one reads what is left: the command stops as Ctrl-C stops it.
                            Signals.stopAsInterrupted()
                            return .readerGone
                        }
                        return .failed("cannot write to standard output (\(String(cString: strerror(errno))))")
                    }
                    sent += n
                }
            }
            if last { return fd >= 0 ? .copied : .notOneFile }
            usleep(Self.pause)
        }
    }

    private enum Found {
        case none
        case several
        case file(Int32)
    }

    /// The folder's one file, opened; `.several` for more than one entry or a folder in it.
    private func openFile() -> Found {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), !names.isEmpty else {
            return .none
        }
        guard names.count == 1 else { return .several }
        let fd = open(folder + "/" + names[0], O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .none } // renamed between the listing and the open: looked at again
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .several
        }
        return .file(fd)
    }

    private static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        return fstat(a, &first) == 0 && fstat(b, &second) == 0 && first.st_ino == second.st_ino
            && first.st_dev == second.st_dev
    }
}
