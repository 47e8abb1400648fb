import ArgumentParser
import XCTest

@testable import haul

/// The quick reading of `haul add` and `haul run` gives the command ArgumentParser gives, every
/// field of it, or leaves the arguments to ArgumentParser.
final class QuickCommandLineTests: XCTestCase {
    /// Every stored property, through ArgumentParser's wrappers: a field the quick reading left
    /// unset shows as a definition, not a value.
    private func fields(_ command: Any) -> String { String(describing: command) }

    private func assertSame(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let quick = try XCTUnwrap(
            QuickCommandLine.parse(arguments), "read quickly: \(arguments)", file: file, line: line)
        let parsed = try Haul.parseAsRoot(arguments)
        XCTAssertEqual(fields(quick), fields(parsed), "\(arguments)", file: file, line: line)
        XCTAssertFalse(
            fields(quick).contains("definition"), "a field left unset: \(fields(quick))", file: file, line: line)
    }

    func testPlainFormsReadAsArgumentParserReadsThem() throws {
        let forms: [[String]] = [
            ["add", "http://h/a"],
            ["add", "http://h/a", "https://h/b?x=1", "http://h/c"],
            ["add", "-d", "/tmp/x", "-i", "list.txt"],
            ["add", "--directory", "/tmp/x", "--input-file", "list.txt", "--state", "/s/state.json"],
            ["add", "--directory=/tmp/x", "--input-file=list.txt", "--state=/s/state.json"],
            ["add", "http://h/a", "-o", "name.iso", "--sha256", String(repeating: "ab", count: 32)],
            ["add", "--header", "Cookie: a=b", "http://h/a", "--header=X-Y: z", "--allow-metered", "--paused"],
            ["add", "--paused", "http://h/a", "-d", "relative/dir"],
            ["run"],
            ["run", "-j", "8"],
            ["run", "--concurrency", "3", "--state", "/s/state.json"],
            ["run", "--concurrency=16", "--on-complete", "mpv --fs"],
            ["run", "--on-complete=notify-send done", "-j", "+2"],
        ]
        for arguments in forms { try assertSame(arguments) }
    }

    /// Help, errors and the rarer forms are ArgumentParser's.
    func testEverythingElseIsLeftToArgumentParser() {
        let declined: [[String]] = [
            [], ["ls"], ["--version"], ["add", "--help"], ["add", "-h"], ["run", "--help"],
            ["add"], // no URL: ArgumentParser's usage error
            ["add", "-o", "x", "http://h/a", "http://h/b"], // validate() refuses
            ["add", "-i", "-"], ["add", "http://h/a", "--"], ["add", "--", "http://h/a"],
            ["add", "-d"], ["add", "-d", "--paused"], ["add", "--directory="], ["add", "-d/tmp", "http://h/a"],
            ["add", "-d", "/a", "-d", "/b", "http://h/a"], ["add", "--paused", "--paused", "http://h/a"],
            ["add", "--unknown", "http://h/a"], ["add", "-x", "http://h/a"], ["add", "", "http://h/a"],
            ["run", "extra"], ["run", "-j"], ["run", "-j", "x"], ["run", "-j", "-1"], ["run", "-j8"],
            ["run", "-j", "2", "-j", "3"], ["run", "--paused"], ["--state", "/s", "run"],
        ]
        for arguments in declined {
            XCTAssertNil(QuickCommandLine.parse(arguments), "\(arguments)")
        }
    }
}
