public import DeviceProtocol
import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
public import Logging

/// iCloud Keychain on one device: a ``SyncDriver`` per view between the device's keychain in
/// keychaind and its account's zones in cloudd. Local changes come from keychaind's queue (a
/// long poll), the cloud's from cloudd's `wait` (the lab's push); the link can be taken down and
/// brought back (`kclab device offline|online`), and the lock state reaches the engines. With a
/// ``SyncStateFile``, what the engines hold is saved after each step and restored at the next
/// start, so a restarted device resumes from its change tokens with its queue intact. `kclab
/// reset` pauses it, then has it forget everything (AccountSync+Reset.swift).
public actor AccountSync {
    let keychain: KeychaindLink
    let cloud: CloudClient
    let logger: Logger
    var drivers: [SyncView: SyncDriver] = [:]
    var online = true
    /// Whether iCloud Keychain is on (Settings › iCloud › Passwords and Keychain).
    public internal(set) var keychainSync = true
    /// Whether the device is locked, as it last said: an engine made afresh is told.
    var locked = false
    /// The last queued change taken from keychaind, and the last one it was told to forget.
    var cursor: Int64 = 0
    var forgotten: Int64 = 0
    var tasks: [Task<Void, Never>] = []
    let stateFile: SyncStateFile?
    /// Saves started, and the last written: a save that a later one overtook is not written.
    var savesStarted = 0
    private var saveFailed = false
    /// What the file holds now: a step that changed nothing saved is not written again.
    var lastSaved: SyncStateFile.State?
    /// No saved state (or all of it forgotten): the engines start from nothing, and the
    /// device's synced items are scanned once they have fetched the cloud's.
    var startsAfresh: Bool
    /// Bumped by each pause: a loop begun before it ends without touching the engines.
    var generation = 0
    /// Paused (`kclab reset`): no event reaches an engine until ``resume()``.
    var paused = false
    /// The steps under way (events being handled, changes being taken), and the pauses waiting
    /// for them to end.
    var steps = 0
    var idle: [CheckedContinuation<Void, Never>] = []

    public init(keychain: KeychaindLink, cloud: CloudClient, logger: Logger, stateFile: SyncStateFile? = nil) {
        self.keychain = keychain
        self.cloud = cloud
        self.logger = logger
        self.stateFile = stateFile
        var saved = SyncStateFile.State()
        do {
            saved = try stateFile?.read() ?? saved
        } catch {
            logger.warning("the saved iCloud Keychain state cannot be read; each view starts with a full fetch", metadata: ["error": "\(error)"])
        }
        (cursor, forgotten, online, keychainSync) = (saved.cursor, saved.forgotten, saved.online, saved.keychainSync)
        startsAfresh = saved.views.isEmpty
        if !startsAfresh { lastSaved = saved }
        for view in SyncView.allCases {
            let engine = saved.views[view].map { SyncEngine(view: view, restoring: $0) } ?? SyncEngine(view: view)
            drivers[view] = SyncDriver(engine: engine, cloud: cloud, keychain: keychain)
        }
    }

    /// Brings every view online (unless the device was left offline or with iCloud Keychain
    /// off) and starts listening to keychaind and cloudd until ``stop()``.
    public func start() async {
        await bringEnginesInLine()
        await scanIfAfresh()
        startLoops()
    }

    /// CKKS scans the keychain when a view starts afresh (a device signed in to an account): what
    /// the account lacks uploads, what it has is the same item.
    func scanIfAfresh() async {
        guard startsAfresh else { return }
        startsAfresh = false
        do {
            try await keychain.rescan()
        } catch {
            logger.warning("the device's synced items were not scanned", metadata: ["error": "\(error)"])
        }
    }

    /// Starts the loops that follow keychaind's feed, each zone and the retries, for the
    /// generation now: a pause ends them.
    func startLoops() {
        let generation = self.generation
        tasks.append(Task { await self.followLocalChanges(generation) })
        for view in SyncView.allCases {
            tasks.append(Task { await self.followZone(view, generation) })
        }
        tasks.append(Task { await self.followRetries(generation) })
    }

    /// Sends each engine its `.retryDue` when its wait is over (30 minutes after a failure).
    private func followRetries(_ generation: Int) async {
        while !Task.isCancelled, generation == self.generation {
            try? await Task.sleep(for: .seconds(1))
            for view in SyncView.allCases {
                guard let driver = drivers[view], let due = await driver.retryAt, due <= .now else { continue }
                await shielded { await self.handle(.retryDue, in: view, generation: generation) }
            }
        }
    }

    public func stop() {
        for task in tasks { task.cancel() }
        tasks = []
    }

    /// Takes the device's link to cloudd down or brings it back: back online, each view fetches
    /// what it missed and uploads what was edited meanwhile.
    public func setOnline(_ on: Bool) async {
        guard on != online else { return }
        online = on
        logger.info(on ? "iCloud Keychain online" : "iCloud Keychain offline")
        guard keychainSync else {
            await save()
            return
        }
        for view in SyncView.allCases { await handle(on ? .wentOnline : .wentOffline, in: view) }
    }

    /// Turns iCloud Keychain off or on. Off, the device neither takes its changes nor hears
    /// the cloud; `deleting` removes the synchronizable items of Apple's password, credit-card
    /// and passkey groups from it without tombstones, so the other devices keep theirs
    /// (`SyncView.deletedOnSignOut`); third-party items stay either way. On again, each view
    /// starts afresh with a full fetch, and the changes made meanwhile upload.
    public func setKeychainSync(_ on: Bool, deleting: Bool) async {
        guard on != keychainSync else {
            if !on, deleting { await deleteSignedOutGroups() }
            return
        }
        keychainSync = on
        // Changes taken but not uploaded are taken again by the fresh engines.
        if on { cursor = forgotten }
        logger.info(on ? "iCloud Keychain turned on" : "iCloud Keychain turned off", metadata: ["deleting": "\(deleting)"])
        if on {
            for view in SyncView.allCases {
                drivers[view] = SyncDriver(view: view, cloud: cloud, keychain: keychain)
                if online { await handle(.wentOnline, in: view) }
            }
        } else {
            for view in SyncView.allCases { await handle(.wentOffline, in: view) }
            if deleting { await deleteSignedOutGroups() }
        }
        await save()
    }

    private func deleteSignedOutGroups() async {
        do {
            try await keychain.deleteSynced(groups: SyncView.deletedOnSignOut)
        } catch {
            logger.warning("the synced passwords were not deleted: \(error)")
        }
    }

    /// The device locked or unlocked: class-A items from the cloud wait for the unlock.
    public func setLocked(_ locked: Bool) async {
        self.locked = locked
        for view in SyncView.allCases { await handle(locked ? .locked : .unlocked, in: view) }
    }

    /// A failed upload or fetch waits 30 minutes on a device; the lab's clock can skip the wait.
    public func retryNow() async {
        for view in SyncView.allCases {
            if let driver = drivers[view], await driver.retryPending { await handle(.retryDue, in: view) }
        }
    }

    public func status() async -> [SyncViewStatus] {
        var statuses: [SyncViewStatus] = []
        for view in SyncView.allCases {
            guard let driver = drivers[view] else { continue }
            let engine = await driver.engine
            statuses.append(
                SyncViewStatus(
                    view: view.rawValue,
                    online: engine.online,
                    token: engine.token,
                    outgoing: engine.outgoing.count,
                    uploading: engine.uploading,
                    heldWhileLocked: engine.held.count,
                    retryPending: await driver.retryPending,
                    lastError: engine.lastError
                )
            )
        }
        return statuses
    }

    /// Every item an engine holds something about: waiting to upload, held while locked, or
    /// noted (`kclab explain item`); metadata only.
    public func itemStates() async -> [SyncItemState] {
        var states: [SyncItemState] = []
        for view in SyncView.allCases {
            guard let driver = drivers[view] else { continue }
            let engine = await driver.engine
            var found: [UUID: (item: KeychainItem, states: [String])] = [:]
            func add(_ uuid: UUID, _ item: KeychainItem?, _ state: String) {
                guard let item = item ?? found[uuid]?.item ?? engine.mirror[uuid]?.item else { return }
                found[uuid, default: (item, [])].states.append(state)
            }
            for entry in engine.outgoing.pending {
                add(
                    entry.uuid,
                    entry.item,
                    "waiting in the \(view) outgoing queue (\(entry.action.rawValue))\(online ? "" : ": the device is offline")"
                )
            }
            for (uuid, record) in engine.held { add(uuid, record.item, "the cloud's copy is held until the device unlocks (class A)") }
            for (uuid, note, item) in await driver.notes { add(uuid, item, note.description) }
            for (uuid, entry) in found.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                let text = { (code: String) in entry.item.attributes[code]?.string }
                states.append(
                    SyncItemState(
                        uuid: uuid.uuidString,
                        view: view.rawValue,
                        itemClass: entry.item.itemClass.rawValue,
                        group: entry.item.accessGroup,
                        account: text("acct"),
                        service: text("svce"),
                        server: text("srvr"),
                        states: entry.states
                    )
                )
            }
        }
        return states
    }

    /// Whether keychaind holds changes not taken yet.
    public func hasUntakenChanges() async -> Bool {
        (try? await keychain.changes(after: cursor).isEmpty == false) ?? false
    }

    // MARK: Saved

    /// Writes the engines' state to the state file, unless a later save overtook this one.
    func save() async {
        guard let stateFile else { return }
        savesStarted += 1
        let number = savesStarted
        var state = SyncStateFile.State()
        (state.cursor, state.forgotten, state.online, state.keychainSync) = (cursor, forgotten, online, keychainSync)
        for view in SyncView.allCases {
            if let driver = drivers[view] { state.views[view] = await driver.engine.saved }
        }
        guard number == savesStarted, state != lastSaved else { return }
        do {
            try stateFile.write(state)
            lastSaved = state
            saveFailed = false
        } catch {
            // Said once, not at every step.
            if !saveFailed { logger.warning("the iCloud Keychain state was not saved", metadata: ["error": "\(error)"]) }
            saveFailed = true
        }
    }

    // MARK: The two feeds

    private func followLocalChanges(_ generation: Int) async {
        while !Task.isCancelled, generation == self.generation {
            // Off, the changes wait in keychaind until iCloud Keychain is on again.
            guard keychainSync else {
                try? await Task.sleep(for: .milliseconds(200))
                continue
            }
            do {
                let changes = try await keychain.changes(after: cursor, wait: .seconds(20))
                await shielded { await self.take(changes, generation: generation) }
            } catch {
                logger.debug("keychaind's sync changes: \(error)")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Feeds each change to its view's engine, then lets keychaind forget what every engine
    /// has uploaded: one step, unless paused or the feed's loop is of an earlier `generation`
    /// (then the changes are not taken, and the cursor does not move).
    func take(_ changes: [KeychaindLink.Change], generation: Int? = nil) async {
        guard beginStep(generation) else { return }
        defer { endStep() }
        // Each view's changes of the page go to its engine together: one upload, not one each.
        var byView: [SyncView: [KeychaindLink.Change]] = [:]
        for change in changes {
            cursor = change.sequence
            let item = change.item
            let view =
                change.deleted
                ? SyncView.view(accessGroup: item.accessGroup, viewHint: item.attributes["vwht"]?.string)
                : SyncPolicy.view(of: item)
            if let view { byView[view, default: []].append(change) }
        }
        var handled = false
        for view in SyncView.allCases {
            guard let changes = byView[view], let driver = drivers[view] else { continue }
            let engine = await driver.engine
            let local = changes.compactMap { change -> LocalChange? in
                let old = engine.mirror[change.item.uuid]?.item
                // A delete of an item the cloud never had and nothing queued is not a change,
                // nor is the item the cloud holds (a scan finds it).
                if change.deleted, old == nil, engine.outgoing[change.item.uuid] == nil { return nil }
                if !change.deleted, old == change.item, engine.outgoing[change.item.uuid] == nil { return nil }
                return LocalChange(uuid: change.item.uuid, old: old, new: change.deleted ? nil : change.item)
            }
            if !local.isEmpty {
                await feed(.localChanges(local), to: view)
                handled = true
            }
        }
        // The cursor moved: kept even when no view took a change.
        if !handled { await save() }
        await forgetUploaded()
    }

    /// Lets keychaind forget the changes taken, once every engine has uploaded them (within a step).
    private func forgetUploaded() async {
        guard cursor > forgotten else { return }
        for driver in drivers.values {
            let engine = await driver.engine
            if !engine.outgoing.isEmpty || engine.uploading { return }
        }
        do {
            try await keychain.forget(through: cursor)
            forgotten = cursor
            await save()
        } catch {
            logger.debug("keychaind did not forget sync changes: \(error)")
        }
    }

    private func followZone(_ view: SyncView, _ generation: Int) async {
        while !Task.isCancelled, generation == self.generation {
            guard online, keychainSync, let driver = drivers[view] else {
                try? await Task.sleep(for: .milliseconds(200))
                continue
            }
            let token = await driver.engine.token
            do {
                if try await cloud.wait(view: view, since: token, seconds: 20) {
                    await shielded { await self.handle(.zoneChanged, in: view, generation: generation) }
                    // A fetch that failed leaves the token where it was: do not spin on it.
                    if await driver.engine.token == token { try? await Task.sleep(for: .seconds(1)) }
                }
                await shielded { await self.forgetUploadedStep(generation) }
            } catch {
                logger.debug("cloudd's wait for \(view): \(error)")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// ``forgetUploaded()`` as a loop's step of `generation`.
    private func forgetUploadedStep(_ generation: Int) async {
        guard beginStep(generation) else { return }
        await forgetUploaded()
        endStep()
    }
}
