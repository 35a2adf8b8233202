public import DeviceProtocol
import KeychainSync
import Logging

/// `kclab reset` on a device: the engines paused, so that nothing they held reaches the cloud or
/// the keychain once keychaind's items and the account's zones are gone; then forgotten, and
/// started afresh (docs/icloud-keychain.md, "Resetting the lab").
extension AccountSync {
    /// How long a pause lasts with no ``resume()`` or ``reset()``: a `kclab reset` that died
    /// midway does not leave the device's iCloud Keychain stopped for good.
    public static let pauseLease: Duration = .seconds(120)

    /// Whether the engines are paused.
    public var isPaused: Bool { paused }

    /// Stops the engines' work: the loops that follow keychaind and cloudd end (their waits are
    /// cancelled), no event reaches an engine until ``resume()``, and this returns once every step
    /// under way has ended (an upload already sent has its answer), so that none is left to
    /// touch the cloud or the keychain afterwards. A loop's wait that answers later is dropped:
    /// the pause began a new generation. Without a resume, the engines resume on their own after
    /// ``pauseLease``.
    public func pause() async {
        if !paused {
            paused = true
            generation += 1
            for task in tasks { task.cancel() }
            let pausedIn = generation
            tasks = [
                Task {
                    try? await Task.sleep(for: Self.pauseLease)
                    await self.endLease(of: pausedIn)
                }
            ]
            logger.info("iCloud Keychain paused")
        }
        while steps > 0 {
            await withCheckedContinuation { idle.append($0) }
        }
    }

    /// The pause begun in `generation` outlived its lease: resumed, unless it ended already.
    private func endLease(of generation: Int) async {
        guard paused, generation == self.generation, !Task.isCancelled else { return }
        logger.warning("iCloud Keychain was paused past its lease (a kclab reset that did not finish): resumed")
        await resume()
    }

    /// Starts the engines' work again after ``pause()``: each engine is told what it missed (the
    /// lock, going online or offline), the device's synced items are scanned if the engines
    /// start afresh, and the loops start.
    public func resume() async {
        guard paused else { return }
        paused = false
        logger.info("iCloud Keychain resumed")
        await bringEnginesInLine()
        await scanIfAfresh()
        startLoops()
    }

    /// Pauses (if not paused), forgets what every engine holds and resumes, as a device that has
    /// just signed in: fresh engines with no token, mirror or queue; keychaind's feed read from
    /// its start (keychaind's reset emptied it); online, with iCloud Keychain on; the state file
    /// removed. Meant for once keychaind's items and the account's zones are gone (`kclab reset`):
    /// the full fetch then finds nothing, and the scan of the keychain queues nothing. Returns
    /// what was forgotten.
    @discardableResult
    public func reset() async -> SyncForgotten {
        await pause()
        var forgotten = SyncForgotten()
        for driver in drivers.values {
            let engine = await driver.engine
            forgotten.mirrored += engine.mirror.count
            forgotten.queued += engine.outgoing.count
            forgotten.held += engine.held.count
            if engine.token != nil { forgotten.tokens += 1 }
        }
        for view in SyncView.allCases {
            drivers[view] = SyncDriver(view: view, cloud: cloud, keychain: keychain)
        }
        (cursor, self.forgotten, online, keychainSync) = (0, 0, true, true)
        // A save begun before (a control's, outside any step) is overtaken: it writes nothing.
        savesStarted += 1
        lastSaved = nil
        stateFile?.remove()
        startsAfresh = true
        logger.notice(
            "iCloud Keychain forgotten",
            metadata: [
                "mirrored": "\(forgotten.mirrored)", "queued": "\(forgotten.queued)", "held": "\(forgotten.held)",
                "tokens": "\(forgotten.tokens)",
            ]
        )
        await resume()
        return forgotten
    }

    /// Tells each engine what it has not heard: the lock first (so that a fetch holds class-A
    /// items), then whether it is online (online, with iCloud Keychain on). At start, a restored
    /// or fresh engine is offline and unlocked.
    func bringEnginesInLine() async {
        for view in SyncView.allCases {
            guard let driver = drivers[view] else { continue }
            let engine = await driver.engine
            if engine.locked != locked { await handle(locked ? .locked : .unlocked, in: view) }
            let on = online && keychainSync
            if engine.online != on { await handle(on ? .wentOnline : .wentOffline, in: view) }
        }
    }
}
