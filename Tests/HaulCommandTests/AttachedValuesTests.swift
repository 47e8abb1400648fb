import XCTest

@testable import haul

/// A short option's value written onto it (`-x16`), as aria2c's and wget's users type it.
final class AttachedValuesTests: XCTestCase {
    func testAShortOptionsAttachedValueBecomesTheNextWord() {
        XCTAssertEqual(
            AttachedValues.separated(["-x16", "-s16", "http://h/a.iso"]), ["-x", "16", "-s", "16", "http://h/a.iso"])
        XCTAssertEqual(AttachedValues.separated(["run", "-j8"]), ["run", "-j", "8"])
        XCTAssertEqual(
            AttachedValues.separated(["add", "-d/tmp/isos", "-oa.iso"]), ["add", "-d", "/tmp/isos", "-o", "a.iso"])
    }

    func testValuesLongOptionsFlagsAndWordsAfterTheEndOfOptionsStay() {
        XCTAssertEqual(AttachedValues.separated(["-o", "-xname", "u"]), ["-o", "-xname", "u"], "an option's value")
        XCTAssertEqual(AttachedValues.separated(["--output", "-x3", "u"]), ["--output", "-x3", "u"])
        XCTAssertEqual(AttachedValues.separated(["--", "-x16"]), ["--", "-x16"])
        XCTAssertEqual(AttachedValues.separated(["-x", "4", "--limit=2M"]), ["-x", "4", "--limit=2M"])
        XCTAssertEqual(AttachedValues.separated(["-h", "-q3"]), ["-h", "-q3"], "not a short option with a value")
        XCTAssertEqual(AttachedValues.separated(["-x"]), ["-x"])
    }
}
