import FoundationEssentials

/// The dates HTTP sends (RFC 9110 §5.6.7), always in GMT: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`),
/// the dashed form cookies still use (`Sun, 06-Nov-1994 …`) and asctime (`Sun Nov  6 08:49:37 1994`).
public enum HTTPDate {
    /// The date, or nil for text in none of the forms or naming a day that does not exist.
    public static func parse(_ text: String) -> Date? {
        // The weekday is left unchecked, as a date's own numbers are what the server meant.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).dropFirst()
        guard words.count >= 4 else { return nil }
        let fields = Array(words)
        let day: Int?
        let month: Int?
        let year: Int?
        let time: Substring
        if let asctimeMonth = monthNumber(fields[0]) {
            (month, day, time, year) = (asctimeMonth, Int(fields[1]), fields[2], Int(fields[3]))
            guard fields.count == 4 else { return nil }
        } else {
            (day, month, year, time) = (Int(fields[0]), monthNumber(fields[1]), Int(fields[2]), fields[3])
            guard fields.count == 5, fields[4] == "GMT" else { return nil }
        }
        let clock = time.split(separator: ":").map { Int($0) }
        guard let day, let month, var year, clock.count == 3, let hour = clock[0], let minute = clock[1],
            let second = clock[2]
        else { return nil }
        // Two-digit years as RFC 6265 reads them: 70–99 are 1970–1999, 00–69 are 2000–2069.
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        let civil = CivilDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard (1601...9999).contains(year), civil.isValid else { return nil }
        return Date(timeIntervalSince1970: Double(civil.secondsSince1970))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func monthNumber(_ word: Substring) -> Int? {
        months.firstIndex(of: word.lowercased()).map { $0 + 1 }
    }
}
