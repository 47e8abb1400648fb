import CLinux
import HaulCore
import HaulHTTP
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The `.part` file a transfer writes into, at explicit offsets with `pwrite`.
/// Owned by one transfer task at a time.
final class PartFile {
    let path: String
    private var fd: Int32

    /// Opens (creating if needed, mode 0644); `truncate` starts it over at zero bytes.
    /// `exclusive` creates it or fails with `EEXIST` (``FileError/isTaken``): a new name's
    /// `.part` that is already there belongs to someone else and is never written into.
    /// A symbolic link in the `.part`'s place is never followed (`ELOOP`): a download writes
    /// only into a file of its own.
    init(path: String, truncate: Bool, exclusive: Bool = false) throws(FileError) {
        self.path = path
        let flags = exclusive ? O_EXCL : (truncate ? O_TRUNC : 0)
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | flags, 0o644)
        guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// A handle for writing from the event loop that receives the body. Valid until `close()`;
    /// the transfer waits for its response to end before it closes the file.
    ///
    /// With `dropBehind` each write asks the kernel to drop its pages from the page cache once
    /// they are on disk (RWF_DONTCACHE), where the file system can. For a large download: the
    /// pages go to disk as they are written instead of gigabytes piling up for the final `fsync`,
    /// the page cache of everything else is not pushed out by a file nobody has read yet, and
    /// the same few megabytes of memory are reused. On this project's VMs that also avoids fresh
    /// pages the host has taken back (see `maxWrite`): 1 GiB to ext4 plus its `fsync`, each
    /// right after another tool's 1 GiB, took 0.44–0.65 s in 5 runs, against 0.67–1.88 s without.
    func writer(dropBehind: Bool) -> Writer {
        Writer(fd: fd, path: path, dropBehind: dropBehind ? DropBehind() : nil)
    }

    /// Whether a file's writes still ask for RWF_DONTCACHE: cleared at the first one refused
    /// (a kernel before 6.14, tmpfs), so the rest go straight to `pwrite`.
    final class DropBehind: Sendable {
        let wanted = Atomic<Bool>(true)
    }

    /// Writes at explicit offsets into an open `.part` file.
    struct Writer: Sendable {
        let fd: Int32
        let path: String
        let dropBehind: DropBehind?

        /// The most one `pwrite` hands the kernel. Larger writes make the page cache take larger
        /// folios, which on a VM that hands free memory back to its host are faulted in again by
        /// the host as they are copied into (docs/PERFORMANCE.md, "One large file to disk"). A
        /// large download also drops its pages behind it (`writer(dropBehind:)`), which reuses
        /// the same memory instead.
        static let maxWrite = 256 * 1024

        func write(_ buffer: ByteBuffer, at offset: Int64) throws(FileError) {
            var dropping = dropBehind?.wanted.load(ordering: .relaxed) ?? false
            let result: Int32 = buffer.withUnsafeReadableBytes { raw in
                var done = 0
                while done < raw.count {
                    let (start, length, at) = (
                        raw.baseAddress! + done, min(raw.count - done, Self.maxWrite), off_t(offset) + off_t(done)
                    )
                    let n =
                        dropping ? haul_pwrite_drop_behind(fd, start, UInt(length), at) : pwrite(fd, start, length, at)
                    if n < 0 {
                        if errno == EINTR { continue }
                        if dropping, errno == EOPNOTSUPP || errno == EINVAL {
                            dropping = false
                            dropBehind?.wanted.store(false, ordering: .relaxed)
                            continue
                        }
                        return errno
                    }
                    done += n
                }
                return 0
            }
            if result != 0 { throw FileError(operation: "write", path: path, code: result) }
        }

        /// Starts writing `range` to disk and returns without waiting (see `WriteBehind`). A
        /// failure here only means the final `fsync` has more to do, so it is not reported.
        func startWriteback(_ range: Range<Int64>) {
            // A drop-behind write has started its own writeback already.
            if dropBehind?.wanted.load(ordering: .relaxed) == true { return }
            _ = haul_start_writeback(fd, Int(range.lowerBound), Int(range.count))
        }
    }

    /// Cuts the file to `length` bytes (used when a resume turns into a fresh start).
    func truncate(to length: Int64) throws(FileError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw FileError(operation: "truncate", path: path, code: errno) }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// How many bytes from the start of the file at `path` are data (``ContiguousData``); nil
    /// when there is no file.
    static func contiguousSize(at path: String) -> Int64? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        return ContiguousData.size(of: fd)
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(at path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}

extension PartFile.Writer {
    /// Waits until the data written so far is on disk (`fdatasync`): before a segment map that
    /// claims it is saved. Blocks: call it on `FileWorkers`.
    func syncData() throws(FileError) {
        guard fdatasync(fd) == 0 else { throw FileError(operation: "sync", path: path, code: errno) }
    }
}

extension PartFile.Writer: BodyDestination {
    /// A full disk is a ``TransferFailure`` saying how much room the rest of the file needs.
    func write(_ buffer: ByteBuffer, at offset: Int64, fileSize total: Int64?) throws {
        do throws(FileError) {
            try write(buffer, at: offset)
        } catch {
            guard error.isDiskFull else { throw error }
            let shortfall = total.map { max(1, $0 - offset - (DiskSpace.available(at: path) ?? 0)) }
            throw TransferFailure(.diskFull(shortfall: shortfall))
        }
    }
}
