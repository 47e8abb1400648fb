/// curl's `--max-time` on `haul URL…`: the command runs at most this long, across every owner it
/// follows, then stops as Ctrl-C stops it (every byte kept; the same command resumes).
struct CommandDeadline: Sendable {
    let seconds: Int
    private let end: ContinuousClock.Instant

    init(seconds: Int) {
        self.seconds = seconds
        end = .now + .seconds(seconds)
    }

    /// Runs `stop` at the deadline unless the task is cancelled first; the task's value says
    /// whether it stopped the command.
    func watch(_ stop: @escaping @Sendable () async -> Void) -> Task<Bool, Never> {
        Task {
            try? await Task.sleep(until: end, clock: .continuous)
            guard !Task.isCancelled else { return false }
            await stop()
            return true
        }
    }

    /// What the command says when the deadline stopped it.
    var sentence: String { "--max-time: \(seconds) s passed; stopped as Ctrl-C stops (the same command resumes)" }
}
