import FoundationEssentials
import HaulCore
import HaulStore

/// Speed limits, the metered data budget and the holds they make: what applies now follows the
/// wall clock (windows, budget periods), so a watch looks at it a few times a second.
extension Engine {
    /// How often the watch looks at the clock and the budget: a window's edge or a period's
    /// end takes effect within this.
    static let bandwidthWatchInterval = Duration.milliseconds(250)

    public var networkStatus: NetworkStatus {
        let wallClock = bandwidth.wallClock
        let now = wallClock.now()
        return NetworkStatus(
            mode: settings.meteredMode, verdict: bandwidth.meteredVerdict, limit: settings.meteredLimit,
            budget: settings.meteredBudget, budgetUsed: bandwidth.meteredCounter.used, speedLimit: settings.speedLimit,
            speedLimitActive: settings.speedLimit?.rate(atMinute: wallClock.minuteOfDay(now)) != nil,
            rpcAddress: rpc.address)
    }

    /// The period the metered count belongs to now.
    var budgetPeriod: BudgetPeriod { settings.meteredBudget?.period ?? .day }

    /// The period the count is for now, and what the state file holds for it.
    static func savedUsage(_ settings: StateDocument.Settings, clock: WallClock) -> (period: String, used: Int64) {
        let key = (settings.meteredBudget?.period ?? .day).key(for: clock.now(), in: clock.zone)
        let usage = settings.meteredUsage
        return (key, usage?.period == key ? usage?.bytes ?? 0 : 0)
    }

    /// Sets the gates and the counter from the status, pauses what a policy holds back now and
    /// resumes what it no longer does.
    func enforceHolds() async {
        let status = networkStatus
        bandwidth.globalGate.setRate(status.rateInForce)
        bandwidth.meteredCounter.set(counting: status.isMetered, budget: settings.meteredBudget?.bytes)
        if torrents.session != nil,
            torrents.meteredApplied != status.isMetered || torrents.downloadLimitApplied != status.rateInForce
        {
            let wasMetered = torrents.meteredApplied
            applyTorrentSettings()
            // Off the metered network again: what stopped seeding for it seeds on.
            if wasMetered, !status.isMetered { resumeSeeding() }
        }
        let conditions = HoldConditions(
            metered: status.isMetered, budgetUsedUp: status.isMetered && status.budgetUsedUp,
            scheduleHolds: status.speedLimitActive && status.speedLimit?.rate == 0)
        let decision = HoldPolicy.decide(downloads.stored, conditions)
        for id in decision.resume {
            guard var download = downloads[id], let cause = download.pauseCause,
                download.resumeFromPolicy(cause.kind)
            else { continue }
            downloads[id] = download
            changed(download)
        }
        for hold in decision.pause { await self.hold(hold.id, cause: hold.cause, status: status) }
    }

    private func hold(_ id: DownloadID, cause kind: PauseCause.Kind, status: NetworkStatus) async {
        var cause = PauseCause(kind)
        switch kind {
        case .budget:
            cause = .budget(
                status.budget.map {
                    BudgetUse(used: max(status.budgetUsed, $0.bytes), budget: $0.bytes, period: $0.period)
                })
        case .schedule:
            cause = .schedule(until: status.speedLimit?.window?.end)
        case .user, .metered, .diskFull:
            break
        }
        guard var download = downloads[id], download.pause(cause) else { return }
        downloads[id] = download
        await stopTransfer(id)
        refreshFromDisk(id)
    }

    /// Watches the clock (windows, budget periods), the budget running out, and the count for
    /// the header, while the engine runs.
    func startBandwidthWatch() {
        guard watches.bandwidth == nil else { return }
        let spent = bandwidth.meteredCounter.spent
        let clock = clock
        watches.bandwidth = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in spent { await self?.meteredBudgetSpent() }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await clock.sleep(for: Self.bandwidthWatchInterval)
                        guard !Task.isCancelled, let self else { return }
                        await self.bandwidthTick()
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// A transfer reports bytes as they come, so one whose bytes stopped (a stall, a wait for the
    /// network) would go on showing its last speed: it is said to be 0 once it was quiet a while.
    private func publishQuietTransfers() {
        for id in transfers.settleQuiet(at: clock.now, after: Self.quietAfter) {
            guard let download = downloads[id] else { continue }
            publish(
                .progress(
                    ProgressSample(
                        id: id, receivedBytes: download.receivedBytes, totalBytes: download.totalBytes,
                        bytesPerSecond: 0, etaSeconds: nil)))
        }
    }

    /// How long a running transfer reports no bytes before its speed is said to be 0.
    static let quietAfter = Duration.seconds(2)

    private func meteredBudgetSpent() async {
        guard phase == .running, networkStatus.isMetered else { return }
        await networkChanged()
    }

    private func bandwidthTick() async {
        guard phase == .running else { return }
        publishQuietTransfers()
        let key = budgetPeriod.key(for: bandwidth.wallClock.now(), in: bandwidth.wallClock.zone)
        let counter = bandwidth.meteredCounter
        if key != bandwidth.usagePeriod {
            bandwidth.usagePeriod = key
            counter.set(counting: networkStatus.isMetered, used: 0, budget: settings.meteredBudget?.bytes)
        }
        settings.meteredUsage =
            counter.used > 0 || settings.meteredUsage != nil ? BudgetUsage(bytes: counter.used, period: key) : nil
        let status = networkStatus
        let last = bandwidth.lastPublished
        guard status != last else { return }
        let holdsChanged =
            status.speedLimitActive != last?.speedLimitActive || status.budgetUsedUp != last?.budgetUsedUp
        publishNetworkStatus()
        if holdsChanged {
            await enforceHolds()
            schedule()
        } else {
            bandwidth.globalGate.setRate(status.rateInForce)
        }
    }

    func publishNetworkStatus() {
        let status = networkStatus
        bandwidth.lastPublished = status
        publish(.network(status))
    }

    // MARK: Commands

    func setSpeedLimit(_ limit: SpeedLimit?) throws(InputError) {
        if let limit, let problem = SpeedLimit.problem(with: limit.rate) { throw InputError(problem) }
        settings.speedLimit = limit
        publishNetworkStatus()
        scheduleSave(after: configuration.transitionSaveDelay)
    }

    func setSpeedLimit(_ rate: Int64?, of ids: [DownloadID]) throws(InputError) {
        if let rate, rate < SpeedLimit.minimumRate {
            throw InputError("a speed limit must be at least \(Formatting.rate(Double(SpeedLimit.minimumRate)))")
        }
        for id in ids {
            guard var download = downloads[id], download.speedLimit != rate else { continue }
            download.speedLimit = rate
            downloads[id] = download
            transfers[id]?.gate.setRate(speedLimit(for: download))
            applyTorrentLimits(download)
            changed(download)
        }
    }

    func setUploadLimit(_ rate: Int64?, of ids: [DownloadID]) throws(InputError) {
        if let rate, rate < SpeedLimit.minimumRate {
            throw InputError("an upload limit must be at least \(Formatting.rate(Double(SpeedLimit.minimumRate)))")
        }
        for id in ids {
            guard var download = downloads[id], download.request.uploadLimit != rate else { continue }
            guard download.isTorrent else {
                throw InputError("\(id) is not a torrent: only torrents upload")
            }
            download.request.uploadLimit = rate
            downloads[id] = download
            applyTorrentLimits(download)
            changed(download)
        }
    }

    func setMeteredBudget(_ budget: DataBudget?) {
        let periodChanged = budget?.period != settings.meteredBudget?.period
        settings.meteredBudget = budget
        if periodChanged {
            // A count kept per day means nothing for a month: start the new period's count afresh.
            bandwidth.usagePeriod = budgetPeriod.key(for: bandwidth.wallClock.now(), in: bandwidth.wallClock.zone)
            bandwidth.meteredCounter.set(counting: networkStatus.isMetered, used: 0, budget: budget?.bytes)
        }
        publishNetworkStatus()
        scheduleSave(after: configuration.transitionSaveDelay)
    }
}
