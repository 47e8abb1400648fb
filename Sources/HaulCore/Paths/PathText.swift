/// Path arithmetic on text, without touching the file system.
public enum PathText {
    /// `path` (absolute) with empty and `.` components dropped and each `..` taking the one
    /// before it away (never above `/`); no trailing slash. What Foundation's
    /// `standardizedFileURL.path` gives for an absolute path.
    public static func standardized(_ path: String) -> String {
        var bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        var starts: [Int] = [] // where each kept component's "/" is in `out`
        bytes.append(UInt8(ascii: "/"))
        var start = 0
        for i in bytes.indices where bytes[i] == UInt8(ascii: "/") {
            let count = i - start
            defer { start = i + 1 }
            if count == 0 || (count == 1 && bytes[start] == UInt8(ascii: ".")) { continue }
            if count == 2, bytes[start] == UInt8(ascii: "."), bytes[start + 1] == UInt8(ascii: ".") {
                if let last = starts.popLast() { out.removeSubrange(last...) }
                continue
            }
            starts.append(out.count)
            out.append(UInt8(ascii: "/"))
            out.append(contentsOf: bytes[start..<i])
        }
        return out.isEmpty ? "/" : String(decoding: out, as: UTF8.self)
    }

    /// Everything before the last `/` ("" when there is none or it is the first character).
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}
