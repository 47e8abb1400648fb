import Glibc

/// How many bytes from the start of an open file are data: its size, or where its first hole
/// begins (bytes written out of order, or lost in a power cut, leave holes). A file system
/// without holes reports its size.
public enum ContiguousData {
    /// nil when the file cannot be read.
    public static func size(of fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let seekHole: Int32 = 4 // SEEK_HOLE, which Glibc's module leaves out (a GNU extension)
        let hole = lseek(fd, 0, seekHole)
        return hole >= 0 ? min(Int64(hole), Int64(info.st_size)) : Int64(info.st_size)
    }
}
