import DeviceProtocol
import Foundation
public import WorldFile

/// Signing a running device out of its iCloud account, and in to another
/// (docs/icloud-keychain.md, "Signing out and in"). The account is the device's certificate's,
/// so the device starts again with the identity the world builder made for the new one, and
/// its iCloud Keychain starts afresh.
extension Lab {
    /// Signs `device` out. `deleting`: first deletes the synced items of Apple's password,
    /// credit-card and passkey groups from it, without tombstones (Settings: "Delete from this
    /// iPhone"); third-party synced items stay either way. Returns the account it left.
    @discardableResult
    public static func signOut(_ device: String, deleting: Bool, state: LabState) async throws -> String {
        let declaration = try declaredDevice(device, state: state)
        guard let account = ICloudSignIn.account(deviceState: state.device(device), worldAccount: declaration.iCloudAccount) else {
            throw LabFailure("\(device) is signed in to no iCloud account")
        }
        if deleting {
            let response = try DeviceClient(state: state, device: device).send(DeviceRequest(.sync(.offDelete)))
            if let error = response.error { throw LabFailure(error) }
        }
        try switchAccount(device, to: nil, state: state)
        _ = try await restart(device, state: state)
        return account
    }

    /// Signs `device`, signed out, in to `account`, one of those the world lets it use. Its
    /// engines fetch the account's zones from nothing, and upload the synced items it kept.
    public static func signIn(_ device: String, account: String, state: LabState) async throws {
        let declaration = try declaredDevice(device, state: state)
        if let current = ICloudSignIn.account(deviceState: state.device(device), worldAccount: declaration.iCloudAccount) {
            throw LabFailure("\(device) is signed in to \(current): sign out first (kclab device icloud sign-out)")
        }
        guard declaration.signInAccounts.contains(account) else {
            let allowed = declaration.signInAccounts.isEmpty ? "none" : declaration.signInAccounts.joined(separator: ", ")
            throw LabFailure(
                "the world does not let \(device) sign in to \(account) (accounts it may use: \(allowed)); list it in the device's iCloudAccounts and rebuild"
            )
        }
        try switchAccount(device, to: account, state: state)
        _ = try await restart(device, state: state)
    }

    private static func declaredDevice(_ device: String, state: LabState) throws -> WorldFile.Device {
        guard let file = state.worldFile(given: nil) else { throw LabFailure("nothing was started in \(state.root.path); run kclab up") }
        let world = try World.load(contentsOf: file)
        guard let declaration = world.device(device) else { throw LabFailure("the world declares no device '\(device)'") }
        return declaration
    }

    /// Records the account and forgets the engines' saved state, which was the old account's.
    private static func switchAccount(_ device: String, to account: String?, state: LabState) throws {
        try ICloudSignIn(account: account).write(deviceState: state.device(device))
        try? FileManager.default.removeItem(at: state.device(device).appending(path: ICloudSignIn.keychainStateFileName))
    }
}

extension LabState {
    /// `world` with each device signed in to the account it is signed in to now, which
    /// `kclab device icloud sign-out|sign-in` may have changed from the world's.
    public func signedIn(_ world: World) -> World {
        var world = world
        for index in world.devices.indices {
            let declared = world.devices[index]
            world.devices[index].iCloudAccount = ICloudSignIn.account(deviceState: device(declared.id), worldAccount: declared.iCloudAccount)
        }
        return world
    }
}
