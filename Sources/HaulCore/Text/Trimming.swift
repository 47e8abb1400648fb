extension String {
    /// The string without leading and trailing characters that match `predicate`.
    public func trimmingCharacters(where predicate: (Character) -> Bool) -> String {
        var slice = Substring(self)
        while let first = slice.first, predicate(first) { slice.removeFirst() }
        while let last = slice.last, predicate(last) { slice.removeLast() }
        return String(slice)
    }
}

extension StringProtocol {
    /// The text without white space (spaces, tabs, line ends, Unicode spaces) at either end.
    public func trimmed() -> String { String(self).trimmingCharacters(where: \.isWhitespace) }
}
