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
        guard watches.probe == nil else { return }
        let (interval, clock) = (configuration.meteredProbeInterval, clock)
        let probe = NetworkProbe(environment: configuration.environment)
        watches.probe = Task { [weak self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                if await self.settings.meteredMode == .auto {
                    let verdict = await probe.check()
                    await self.probeAnswered(verdict)
                }
            }
        }
    }

    private func probeAnswered(_ verdict: MeteredVerdict) async {
        guard verdict != bandwidth.meteredVerdict, !isShutDown else { return }
        bandwidth.meteredVerdict = verdict
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
        bandwidth.meteredVerdict = verdict
    }
}
