import DeviceProtocol
import KeychainSyncClient
import WorldFile

extension Device {
    /// `kclab device offline|online`, `kclab sync status`: the link to cloudd and each view's
    /// state; `kclab reset` pauses the engines, then has them forget everything (or resume as
    /// they were, if the reset failed). A device signed in to no account, or in a lab without
    /// cloudd, syncs nothing.
    func sync(_ control: SyncControl) async -> DeviceResponse {
        guard let sync else {
            return .failure(
                "\(declaration.id) syncs no keychain: it is signed in to no iCloud account (iCloudAccount in the world), or the lab runs no cloudd"
            )
        }
        var forgotten: SyncForgotten?
        switch control {
        case .offline: await sync.setOnline(false)
        case .online: await sync.setOnline(true)
        case .retry: await sync.retryNow()
        case .status: break
        case .offKeep: await sync.setKeychainSync(false, deleting: false)
        case .offDelete: await sync.setKeychainSync(false, deleting: true)
        case .on: await sync.setKeychainSync(true, deleting: false)
        case .pause: await sync.pause()
        case .resume: await sync.resume()
        case .reset: forgotten = await sync.reset()
        }
        var response = DeviceResponse()
        response.sync = SyncStatus(
            account: declaration.iCloudAccount ?? "",
            keychainSync: await sync.keychainSync,
            untakenChanges: await sync.hasUntakenChanges(),
            views: await sync.status(),
            items: await sync.itemStates(),
            forgotten: forgotten,
            paused: await sync.isPaused ? true : nil
        )
        return response
    }
}
