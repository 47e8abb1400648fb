/// A host-name glob as the `--for` options and `host:` folder rules take it: `*` and `?` as in a
/// file glob, any case, and `*.example.org` also covers `example.org` itself.
public enum HostPattern {
    public static func matches(_ pattern: String, host: String) -> Bool {
        let pattern = pattern.lowercased()
        let host = host.lowercased()
        if pattern.hasPrefix("*."), host == pattern.dropFirst(2) { return true }
        return Glob.matches(pattern, host)
    }
}
