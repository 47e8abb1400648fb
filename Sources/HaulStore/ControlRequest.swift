import Foundation
import HaulCore

/// A setting change for the haul process that holds the state file, handed over in
/// `<state>.control` and announced with SIGUSR1 (`haul metered` while `haul run` or the TUI
/// runs). A stopgap until commands travel over the daemon's socket.
public struct ControlRequest: Codable, Sendable, Equatable {
    public var meteredMode: MeteredMode?
    /// Set to change the cap; `.some(nil)` removes it.
    public var meteredLimit: Int64??

    public init(meteredMode: MeteredMode?, meteredLimit: Int64??) {
        self.meteredMode = meteredMode
        self.meteredLimit = meteredLimit
    }

    public static func path(statePath: String) -> String { statePath + ".control" }

    public func write(statePath: String) throws {
        try AtomicFile.write(try JSONEncoder().encode(self), to: Self.path(statePath: statePath), mode: 0o600)
    }

    /// Reads and removes the pending request, if any.
    public static func take(statePath: String) -> ControlRequest? {
        let path = Self.path(statePath: statePath)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        try? FileManager.default.removeItem(atPath: path)
        return try? JSONDecoder().decode(ControlRequest.self, from: data)
    }
}
