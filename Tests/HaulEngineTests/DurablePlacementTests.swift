import Foundation
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Finished files placed as a group: each file gets its own answer, whatever the others' were.
final class DurablePlacementTests: XCTestCase {
    func testEachFileOfAGroupIsPlacedTakenOrFailedOnItsOwn() throws {
        let dir = TestDirectory("durable")
        let first = dir.subdirectory("one")
        let second = dir.subdirectory("two")
        for (folder, name) in [(first, "a"), (first, "b"), (second, "c")] {
            try Data(name.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name).part"))
        }
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: first + "/b"))
        let jobs = [
            DurablePlacement.Job(part: first + "/a.part", final: first + "/a", directory: first),
            DurablePlacement.Job(part: first + "/b.part", final: first + "/b", directory: first),
            DurablePlacement.Job(part: second + "/gone.part", final: second + "/gone", directory: second),
            DurablePlacement.Job(part: second + "/c.part", final: second + "/c", directory: second),
        ]
        let results = DurablePlacement.place(jobs)
        XCTAssertEqual(results.count, 4)
        guard case .placed = results[0], case .nameTaken = results[1], case .failed = results[2],
            case .placed = results[3]
        else { return XCTFail("\(results)") }
        XCTAssertEqual(TestFiles.contents(first + "/a"), Data("a".utf8))
        XCTAssertEqual(TestFiles.contents(first + "/b"), Data("theirs".utf8), "never over another file")
        XCTAssertEqual(TestFiles.contents(first + "/b.part"), Data("b".utf8), "kept for the next name")
        XCTAssertEqual(TestFiles.contents(second + "/c"), Data("c".utf8))
    }

    func testFilesFinishingTogetherAreAllPlacedWithTheirOwnAnswers() async throws {
        let dir = TestDirectory("durable")
        let count = 200
        for i in 0..<count {
            try Data("file \(i)".utf8).write(to: URL(fileURLWithPath: "\(dir.path)/f\(i).part"))
        }
        // Every tenth name is taken already.
        for i in stride(from: 0, to: count, by: 10) {
            try Data("taken".utf8).write(to: URL(fileURLWithPath: "\(dir.path)/f\(i)"))
        }
        let placement = DurablePlacement()
        let taken = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for i in 0..<count {
                group.addTask {
                    let job = DurablePlacement.Job(
                        part: "\(dir.path)/f\(i).part", final: "\(dir.path)/f\(i)", directory: dir.path)
                    switch await placement.place(job) {
                    case .placed: return (i, false)
                    case .nameTaken: return (i, true)
                    case .failed(let error): throw error
                    }
                }
            }
            var taken: Set<Int> = []
            for try await (i, wasTaken) in group where wasTaken { taken.insert(i) }
            return taken
        }
        XCTAssertEqual(taken, Set(stride(from: 0, to: count, by: 10)))
        for i in 0..<count where !taken.contains(i) {
            XCTAssertEqual(TestFiles.contents("\(dir.path)/f\(i)"), Data("file \(i)".utf8))
        }
    }
}
