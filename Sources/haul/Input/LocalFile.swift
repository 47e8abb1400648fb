#if canImport(Glibc)
    import Glibc
#endif

/// What the add path learns of a local file before it reads one.
enum LocalFile {
    /// The size of the regular file at `path`; nil when there is none. A file too large to be
    /// what a name without `.torrent` or `.meta4` might be is never read whole to find out.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
