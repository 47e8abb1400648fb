import HaulCore
import HaulStore

/// The metered-network probe: NetworkManager's verdict while the mode is `auto`.
extension Engine {
    func networkChanged() async {
        publishNetworkStatus()
        await enforceHolds()
        schedule()
    }

    /// Polls the probe while the mode is `auto`, from one interval on: `start()` has just asked it.
    func startProbing() {
        guard probeTask == nil else { return }
        let interval = configuration.meteredProbeInterval
        let probe = NetworkProbe(environment: configuration.environment)
        probeTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
                guard !Task.isCancelled, let self else { return }
                if await self.settings.meteredMode == .auto {
                    let verdict = await probe.check()
                    await self.probeAnswered(verdict)
                }
            }
        }
    }

    private func probeAnswered(_ verdict: MeteredVerdict) async {
        guard verdict != meteredVerdict, !isShutDown else { return }
        meteredVerdict = verdict
        await networkChanged()
    }

    /// The status with the probe asked afresh when the mode is `auto` (for `haul metered`).
    public func refreshedNetworkStatus() async -> NetworkStatus {
        if settings.meteredMode == .auto { await probeNow() }
        return networkStatus
    }

    /// Asks the probe now (when the mode was just set to auto).
    func probeNow() async {
        let verdict = await NetworkProbe(environment: configuration.environment).check()
        meteredVerdict = verdict
    }
}
