/// Path arithmetic on text, without touching the file system.
public enum PathText {
    /// Everything before the last `/` ("" when there is none or it is the first character).
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}
