import FoundationEssentials
import HaulCore
import HaulStore

#if canImport(Glibc)
    import Glibc
#endif

/// The files a torrent keeps beside the state file, in `torrents/` and named by info hash: the
/// `.torrent` it was added from (written before the add is answered) and libtorrent's resume data
/// (which pieces are on disk, the metadata of a magnet once the swarm sent it).
struct TorrentStore: Sendable {
    let folder: String

    init(statePath: String) {
        folder = PathText.folder(of: statePath) + "/torrents"
    }

    func metainfoPath(_ infoHash: String) -> String { "\(folder)/\(infoHash).torrent" }
    func resumePath(_ infoHash: String) -> String { "\(folder)/\(infoHash).resume" }

    /// Writes a torrent's file durably (synced, then renamed into place).
    func keepMetainfo(_ bytes: [UInt8], infoHash: String) throws(InputError) {
        do {
            try DownloadDirectory.create(folder)
            try AtomicFile.write(bytes, to: metainfoPath(infoHash))
        } catch {
            throw InputError("the torrent could not be kept in \(TerminalText.sanitize(folder)): \(error)")
        }
    }

    /// Replaces the resume data (synced, then renamed into place: a crash leaves the old or the new).
    func keepResumeData(_ bytes: [UInt8], infoHash: String) -> Bool {
        do {
            try DownloadDirectory.create(folder)
            try AtomicFile.write(bytes, to: resumePath(infoHash))
            return true
        } catch {
            return false
        }
    }

    func metainfo(_ infoHash: String) -> [UInt8]? {
        (try? FileContents.read(metainfoPath(infoHash))).map { [UInt8]($0) }
    }
    func resumeData(_ infoHash: String) -> [UInt8]? {
        (try? FileContents.read(resumePath(infoHash))).map { [UInt8]($0) }
    }

    /// Removes what it kept of a torrent that is taken off the list.
    func forget(_ infoHash: String) {
        unlink(metainfoPath(infoHash))
        unlink(resumePath(infoHash))
    }
}
