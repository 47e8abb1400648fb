import FoundationEssentials
import HaulCore
import HaulStore

#if canImport(Glibc)
    import Glibc
#endif

/// The files a torrent keeps beside the state file, named by info hash: the `.torrent` it was
/// added from (written before the add is answered) and libtorrent's resume data (which pieces are
/// on disk, the metadata of a magnet once the swarm sent it).
///
/// The folder is the state file's own, as its journal and lock are: `torrents/` for the usual
/// `state.json`, `NAME.torrents/` for a state file named otherwise. Two state files in one folder
/// must never share it: taking a torrent off one list would delete what the other resumes from.
struct TorrentStore: Sendable {
    let folder: String
    /// Where a state file not named `state.json` kept its torrents before each had its own
    /// folder: its `.torrent` files are still read (one info hash, one file, whoever wrote it),
    /// never written or removed. Resume data is not read from it: it may be another state
    /// file's, of other folders; without its own, a torrent checks the files it has.
    let sharedFolder: String?

    init(statePath: String) {
        let directory = PathText.folder(of: statePath)
        let name = PathText.lastComponent(of: statePath)
        if name == Self.usualStateName {
            folder = directory + "/torrents"
            sharedFolder = nil
        } else {
            folder = directory + "/" + name + ".torrents"
            sharedFolder = directory + "/torrents"
        }
    }

    /// The state file whose torrents are in `torrents/`.
    static let usualStateName = "state.json"

    func metainfoPath(_ infoHash: String) -> String { Self.metainfoPath(infoHash, in: folder) }
    func resumePath(_ infoHash: String) -> String { "\(folder)/\(infoHash).resume" }
    private static func metainfoPath(_ infoHash: String, in folder: String) -> String {
        "\(folder)/\(infoHash).torrent"
    }

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
        read(metainfoPath(infoHash)) ?? sharedFolder.flatMap { read(Self.metainfoPath(infoHash, in: $0)) }
    }
    func resumeData(_ infoHash: String) -> [UInt8]? { read(resumePath(infoHash)) }

    private func read(_ path: String) -> [UInt8]? {
        (try? FileContents.read(path)).map { [UInt8]($0) }
    }

    /// Removes what it kept of a torrent that is taken off the list.
    func forget(_ infoHash: String) {
        unlink(metainfoPath(infoHash))
        unlink(resumePath(infoHash))
    }
}
