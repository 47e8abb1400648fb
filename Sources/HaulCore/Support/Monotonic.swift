#if canImport(Glibc)
    import Glibc
#endif

/// Seconds on the monotonic clock, for rates and throttling.
public enum Monotonic {
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
