import Synchronization

/// What a command run from the UI's command line printed, line by line, stdout and stderr apart.
final class ConsoleCapture: Sendable {
    private let lines = Mutex<[(text: String, isError: Bool)]>([])

    func add(_ text: String, isError: Bool) {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        lines.withLock { $0 += parts.map { ($0, isError) } }
    }

    var all: [(text: String, isError: Bool)] { lines.withLock { $0 } }
}
