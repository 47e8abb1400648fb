import Foundation
import HaulCore

/// The engine's side of re-attaching: while no UI is attached to a daemon, notable outcomes
/// are written into an ``AwayReport`` (saved with the state, so it survives the daemon); the
/// next UI takes it.
extension Engine {
    func recordAway(_ download: Download) {
        guard configuration.recordsAway, attachedUIs == 0 else { return }
        var report = away ?? AwayReport(since: Date())
        if report.record(download) { away = report }
    }

    /// A UI attaches: it gets the report (which is cleared) and recording pauses until it leaves.
    public func attachUI() -> AwayReport? {
        attachedUIs += 1
        defer {
            if away != nil {
                away = nil
                scheduleSave(delay: configuration.transitionSaveDelay)
            }
        }
        return away.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A UI left; with none left, a daemon records again from now on.
    public func detachUI() {
        attachedUIs = max(0, attachedUIs - 1)
        if attachedUIs == 0, configuration.recordsAway { away = AwayReport(since: Date()) }
    }

    public var attachedUICount: Int { attachedUIs }
}
