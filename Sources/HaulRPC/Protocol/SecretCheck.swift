/// Compares a call's secret with the saved one in time that does not depend on where they
/// differ, so that timing the replies tells nothing about the secret.
public enum SecretCheck {
    public static func matches(_ given: String, _ secret: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(secret.utf8)
        var difference = a.count ^ b.count
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= Int(x ^ y)
        }
        return difference == 0
    }
}
