import XCTest

@testable import HaulCore

final class ContentDispositionTests: XCTestCase {
    func testPlainFilename() {
        XCTAssertEqual(ContentDisposition.fileName(from: "attachment; filename=report.pdf"), "report.pdf")
        XCTAssertEqual(ContentDisposition.fileName(from: "attachment; filename=\"my report.pdf\""), "my report.pdf")
        XCTAssertEqual(
            ContentDisposition.fileName(from: #"attachment; filename="a \"quoted\" name.txt""#), #"a "quoted" name.txt"#
        )
    }

    func testExtendedFilenameWinsOverPlain() {
        let header = "attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt"
        XCTAssertEqual(ContentDisposition.fileName(from: header), "日本語.txt")
        XCTAssertEqual(
            ContentDisposition.fileName(from: "attachment; filename*=iso-8859-1'en'%A3%20rates.txt"), "£ rates.txt")
    }

    func testBrokenExtendedFallsBackToPlain() {
        XCTAssertEqual(ContentDisposition.fileName(from: "attachment; filename*=UTF-8''%ZZ; filename=ok.bin"), "ok.bin")
        XCTAssertEqual(
            ContentDisposition.fileName(from: "attachment; filename*=UTF-8''%FF%FE; filename=ok.bin"), "ok.bin")
    }

    func testNoFilename() {
        XCTAssertNil(ContentDisposition.fileName(from: "inline"))
        XCTAssertNil(ContentDisposition.fileName(from: "attachment; size=12"))
    }
}

final class FileNameSanitizerTests: XCTestCase {
    func testPathTraversalKeepsOnlyLastComponent() {
        XCTAssertEqual(FileNameSanitizer.sanitize("../../etc/passwd"), "passwd")
        XCTAssertEqual(FileNameSanitizer.sanitize("/etc/shadow"), "shadow")
        XCTAssertEqual(FileNameSanitizer.sanitize("..\\..\\win.ini"), "win.ini")
        XCTAssertNil(FileNameSanitizer.sanitize(".."))
        XCTAssertNil(FileNameSanitizer.sanitize("../"))
        XCTAssertNil(FileNameSanitizer.sanitize(""))
    }

    func testControlCharactersAndEscapesAreRemoved() {
        XCTAssertEqual(FileNameSanitizer.sanitize("evil\u{1B}[31mred\u{1B}[0m.txt"), "evilred.txt")
        XCTAssertEqual(FileNameSanitizer.sanitize("title\u{1B}]0;pwned\u{07}.txt"), "title.txt")
        XCTAssertEqual(FileNameSanitizer.sanitize("a\u{0}b\nc\rd\u{7F}.bin"), "abcd.bin")
        XCTAssertEqual(FileNameSanitizer.sanitize("gpj.\u{202E}exe"), "gpj.exe")
    }

    func testHiddenAndOptionLikeNamesLoseLeadingDotsAndDashes() {
        XCTAssertEqual(FileNameSanitizer.sanitize(".bashrc"), "bashrc")
        XCTAssertEqual(FileNameSanitizer.sanitize("-rf"), "rf")
        XCTAssertEqual(FileNameSanitizer.sanitize("  name.txt. "), "name.txt")
    }

    func testLongNamesAreCutOnCharacterBoundariesKeepingTheExtension() {
        let long = String(repeating: "日", count: 200) + ".tar"
        let cut = FileNameSanitizer.sanitize(long)!
        XCTAssertLessThanOrEqual(cut.utf8.count, FileNameSanitizer.maximumBytes)
        XCTAssertTrue(cut.hasSuffix(".tar"))
        XCTAssertTrue(cut.dropLast(4).allSatisfy { $0 == "日" })
    }

    /// A compressed archive keeps both its suffixes when its name is cut, as a second copy's
    /// number goes before both: "name….tar.gz" still opens as a tarball.
    func testALongArchiveNameKeepsItsTypeAndItsCompression() {
        let cut = FileNameSanitizer.sanitize(String(repeating: "b", count: 400) + ".tar.gz")!
        XCTAssertEqual(cut.utf8.count, FileNameSanitizer.maximumBytes)
        XCTAssertTrue(cut.hasSuffix("b.tar.gz"), cut)
        XCTAssertTrue(FileNameSanitizer.sanitize(String(repeating: "r", count: 300) + "-1.2.gz")!.hasSuffix("r.gz"))
    }

    /// `lastComponent` gives what `split(whereSeparator:).last` gives, combining marks and emoji
    /// next to the separators included.
    func testLastComponentAgreesWithSplit() {
        let alphabet: [String] = ["/", "\\", "a", "é", "e\u{301}", "/\u{301}", "👍🏽", "🇫🇷", ".", " ", "%2F"]
        var rng = SystemRandomNumberGenerator()
        var samples = ["", "/", "//", "a", "/a", "a/", "/a/b//", "\\x\\", "🇫🇷/🇩🇪"]
        for _ in 0..<2000 {
            samples.append(
                (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined())
        }
        for sample in samples + samples.map({ $0.filter(\.isASCII) }) {
            XCTAssertEqual(
                sample.lastComponent(separatedBy: "/", or: "\\"),
                sample.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init), sample.debugDescription
            )
            XCTAssertEqual(
                sample.lastComponent(separatedBy: "/"), sample.split(separator: "/").last.map(String.init),
                sample.debugDescription)
        }
    }
}

final class FileNamingTests: XCTestCase {
    func testSuggestedNamePrefersContentDispositionThenURL() {
        XCTAssertEqual(
            FileNaming.suggestedName(contentDisposition: "attachment; filename=a.iso", url: "http://h/b.iso"), "a.iso")
        XCTAssertEqual(
            FileNaming.suggestedName(contentDisposition: nil, url: "http://h/dir/my%20file.iso?x=1"), "my file.iso")
        XCTAssertEqual(FileNaming.suggestedName(contentDisposition: nil, url: "http://h/"), "download")
        XCTAssertEqual(
            FileNaming.suggestedName(contentDisposition: nil, url: "http://bücher.example/pläne/ü b.iso"),
            "ü b.iso",
            "an internationalized host")
        XCTAssertEqual(FileNaming.suggestedName(contentDisposition: nil, url: "http://[::1]:8080/a.bin#part"), "a.bin")
        XCTAssertEqual(
            FileNaming.suggestedName(
                contentDisposition: "attachment; filename=\"../\"", url: "http://h/x/..%2F..%2Fpasswd"), "passwd")
    }

    /// A canonical URL's name is cut from its bytes; the same URL with an empty fragment is not
    /// canonical and goes through `URLComponents`: both must give the same name.
    func testANameCutFromACanonicalURLIsTheNameItsParseGives() {
        let urls = [
            "http://h/a/b.iso", "https://h:8443/d/b%20c.iso?x=1&y=/z.bin", "http://h/x.iso?name=y.bin",
            "http://h/%E2%82%AC.txt", "http://h/dir/", "http://h", "http://h?x=/y.iso", "http://h/a;b=c/d(1).tar.gz",
            "http://h/..%2F..%2Fpasswd", "http://h/a:b@c", "http://10.0.0.1:80/~u/f_1-2.bin",
        ]
        for url in urls {
            XCTAssertNotNil(DownloadURL.canonicalTarget(url), url)
            XCTAssertNil(DownloadURL.canonicalTarget(url + "#"), url)
            XCTAssertEqual(FileNaming.nameFromURL(url), FileNaming.nameFromURL(url + "#"), url)
        }
        XCTAssertEqual(FileNaming.nameFromURL("http://h/d/my%20file.iso?x=/y"), "my file.iso")
        XCTAssertNil(FileNaming.nameFromURL("http://h?x=/y.iso"), "a query is not a path")
    }

    func testACompressionSuffixKeepsTheTypeBeforeIt() {
        XCTAssertEqual(FileNaming.splitExtension("dataset.csv.gz").1, ".csv.gz")
        XCTAssertEqual(FileNaming.splitExtension("dump.SQL.ZST").1, ".SQL.ZST")
        XCTAssertEqual(FileNaming.splitExtension("a.tar.xz").1, ".tar.xz")
        XCTAssertEqual(FileNaming.splitExtension("logs.ndjson.gz").1, ".gz", "six letters is not taken for a type")
        XCTAssertEqual(FileNaming.splitExtension("release-1.2.gz").1, ".gz", "a version number is not a type")
        XCTAssertEqual(FileNaming.splitExtension("file.csv.bak").1, ".bak", "only compression suffixes pair up")
        XCTAssertEqual(FileNaming.splitExtension(".gz").1, "")
        XCTAssertEqual(FileNaming.splitExtension(".bashrc.gz").1, ".gz", "a leading dot is part of the name")
        XCTAssertEqual(FileNaming.splitExtension("x.gz").0, "x")
    }

    func testUniqueNameCountsUp() {
        let taken: Set = ["a.txt", "a (1).txt", "b.tar.gz", "noext"]
        XCTAssertEqual(FileNaming.uniqueName("a.txt", isTaken: taken.contains), "a (2).txt")
        XCTAssertEqual(FileNaming.uniqueName("b.tar.gz", isTaken: taken.contains), "b (1).tar.gz")
        XCTAssertEqual(FileNaming.uniqueName("noext", isTaken: taken.contains), "noext (1)")
        XCTAssertEqual(
            FileNaming.uniqueName("dataset.csv.gz", isTaken: { $0 == "dataset.csv.gz" }), "dataset (1).csv.gz")
        XCTAssertEqual(FileNaming.uniqueName("free.bin", isTaken: taken.contains), "free.bin")
    }
}

final class TerminalTextTests: XCTestCase {
    func testEscapeSequencesNeverSurvive() {
        let hostile = "a\u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{07}b\u{9B}31mc\u{1B}Pq#0\u{1B}\\d\u{1B}c"
        let clean = TerminalText.sanitize(hostile)
        XCTAssertEqual(clean, "abcd")
        XCTAssertFalse(clean.unicodeScalars.contains { TerminalText.isUnsafe($0) })
    }

    func testControlsBecomeVisible() {
        XCTAssertEqual(TerminalText.sanitize("line1\nline2\t!"), "line1?line2?!")
        XCTAssertEqual(TerminalText.sanitize("日本語 ok"), "日本語 ok")
    }
}
