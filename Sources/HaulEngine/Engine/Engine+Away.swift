import FoundationEssentials
import HaulCore

/// The engine's side of re-attaching: while no UI is attached to a daemon, notable outcomes
/// are written into an ``AwayReport`` (saved with the state, so it survives the daemon); the
/// next UI takes it.
extension Engine {
    func recordAway(_ download: Download) {
        guard configuration.recordsAway, attachments.count == 0 else { return }
        let now = bandwidth.wallClock.now()
        var report = attachments.report ?? AwayReport(since: now)
        if report.record(download, at: now) { attachments.report = report }
    }

    /// A UI attaches: it gets the report (which is cleared) and recording pauses until it leaves.
    public func attachUI() -> AwayReport? {
        attachments.count += 1
        defer {
            if attachments.report != nil {
                attachments.report = nil
                scheduleSave(after: configuration.transitionSaveDelay)
            }
        }
        return attachments.report.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A UI left; with none left, a daemon records again from now on.
    public func detachUI() {
        attachments.count = max(0, attachments.count - 1)
        if attachments.count == 0, configuration.recordsAway {
            attachments.report = AwayReport(since: bandwidth.wallClock.now())
        }
    }

    public var attachedUICount: Int { attachments.count }
}
