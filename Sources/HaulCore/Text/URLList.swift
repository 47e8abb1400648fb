extension String {
    /// The non-blank lines of a URL list, trimmed, without `#` comment lines (`haul add -i`, as
    /// `wget -i` and `aria2c -i` read them).
    public func urlListLines() -> [String] {
        split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = String(line).trimmingCharacters(where: \.isWhitespace)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
        }
    }
}
