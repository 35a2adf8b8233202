import KeychainSync

/// The engines' work as steps: an event handled, changes taken, keychaind told to forget. A pause
/// (`kclab reset`) lets no step begin and waits for those under way to end; a loop's step carries
/// the loop's generation, so that a loop begun before a pause begins none after it.
extension AccountSync {
    /// Feeds `event` to `view`'s engine, then saves what the engines hold: one step, unless the
    /// engines are paused (or `generation`, a loop's, is not the one now).
    func handle(_ event: SyncEvent, in view: SyncView, generation: Int? = nil) async {
        guard beginStep(generation) else { return }
        await feed(event, to: view)
        endStep()
    }

    /// ``handle(_:in:generation:)`` within a step already begun.
    func feed(_ event: SyncEvent, to view: SyncView) async {
        await drivers[view]?.handle(event)
        await save()
    }

    /// Begins a step of the engines, unless they are paused or `generation` (a loop's) is not
    /// the one now: a pause waits until every step begun has ended.
    func beginStep(_ generation: Int?) -> Bool {
        guard !paused, generation.map({ $0 == self.generation }) ?? true else { return false }
        steps += 1
        return true
    }

    func endStep() {
        steps -= 1
        guard steps == 0 else { return }
        for waiter in idle { waiter.resume() }
        idle = []
    }

    /// Runs a loop's step in a task of its own, which the loop's cancellation at a pause does not
    /// reach: an upload already sent ends as it would have (its answer fed to the engine), and
    /// the pause waits for it.
    func shielded(_ step: @escaping @Sendable () async -> Void) async {
        await Task { await step() }.value
    }
}
