import ArgumentParser
import DeviceProtocol
import Foundation
import LabControl

/// `kclab device …`: act on a running device.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Lock, unlock or restart a running device; script its user's answers; list the prompts it showed.",
        discussion: """
            A locked device cannot open items protected kSecAttrAccessibleWhenUnlocked (ak, aku, akpu): \
            calls on them get errSecInteractionNotAllowed (-25308). After a restart, items protected \
            kSecAttrAccessibleAfterFirstUnlock (ck, cku) stay closed too until the first unlock. A \
            device without a passcode has nothing to lock, as on iOS.

            A Mac's login keychain locks apart from the screen (lock-keychain): then a call that must \
            open it asks the user for the keychain password (the scripted user's approve types it; \
            decline cancels: errSecUserCanceled, -128), or gets errSecInteractionNotAllowed (-25308) \
            when it may show no UI. unlock-keychain opens it with the user's password (the world's \
            passcode) or --password.
            """,
        subcommands: [
            Lock.self, Unlock.self, Reboot.self, SetPasscode.self, RemovePasscode.self, LockKeychain.self, UnlockKeychain.self, Answer.self,
            Prompts.self, Offline.self, Online.self, ICloud.self,
        ]
    )

    struct Target: ParsableArguments {
        @Option(help: "The state folder of kclab up.")
        var state = "state"

        @Option(help: "The device's ID.", completion: LabCompletion.devices)
        var device: String

        func client() throws -> DeviceClient {
            try deviceClient(state: state, device: device)
        }

        func send(_ action: DeviceRequest.Action) throws {
            let response = try client().send(DeviceRequest(action))
            if let error = response.error { throw fail(error) }
            guard let status = response.device else { throw fail("the device did not describe its state") }
            say("\(status.id): \(status.isLocked ? "locked" : "unlocked")")
        }

        /// Takes the device's iCloud Keychain link down or up, and says so.
        func sync(_ control: SyncControl) throws -> String {
            let response = try client().send(DeviceRequest(.sync(control)))
            if let error = response.error { throw fail(error) }
            return "\(device): iCloud Keychain \(control == .offline ? "offline" : "online")"
        }

        /// Sends a login-keychain request; a non-zero OSStatus fails with its name and reason.
        func sendKeychain(_ request: DeviceRequest) throws {
            let response = try client().send(request)
            if let error = response.error { throw fail(error) }
            if let status = response.status, status != 0 {
                throw fail("\(response.name ?? "\(status)") (\(status)): \(response.reason ?? "")")
            }
            guard let state = response.device else { throw fail("the device did not describe its state") }
            say("\(state.id): login keychain \(state.loginKeychainLocked == true ? "locked" : "unlocked")")
        }
    }

    struct Offline: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take the device's link to cloudd down: its iCloud Keychain edits queue up, and other devices' changes do not reach it."
        )
        @OptionGroup var target: Target
        func run() throws { say(try target.sync(.offline)) }
    }

    struct Online: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring the device's link to cloudd back: it fetches what it missed (the server's copy wins a conflict) and uploads its edits."
        )
        @OptionGroup var target: Target
        func run() throws { say(try target.sync(.online)) }
    }

    /// `kclab device icloud keychain-sync off --keep|--delete|on`
    struct ICloud: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "icloud",
            abstract: "The device's iCloud settings: iCloud Keychain on or off, signing out and in.",
            subcommands: [KeychainSync.self, SignOut.self, SignIn.self]
        )

        /// `kclab device icloud sign-out --keep|--delete`
        struct SignOut: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "sign-out",
                abstract: "Sign the device out of its iCloud account, keeping or deleting its synced passwords.",
                discussion: """
                    The account is the device's certificate's, so the device restarts with the certificate the world \
                    builder made for it signed out. --delete first removes the synchronizable items of Apple's \
                    password, credit-card and passkey groups from this device, without tombstones; third-party apps' \
                    synchronizable items stay either way, as on iOS. Needs a lab started by kclab up.
                    """
            )
            @Flag(help: "Keep this device's copies.")
            var keep = false
            @Flag(help: "Delete the synced passwords, credit cards and passkeys from this device.")
            var delete = false
            @OptionGroup var target: Target

            func validate() throws {
                if keep == delete { throw ValidationError("signing out asks: give --keep or --delete") }
            }

            func run() async throws {
                let state = LabState(root: URL(fileURLWithPath: target.state))
                let account: String
                do {
                    account = try await Lab.signOut(target.device, deleting: delete, state: state)
                } catch {
                    throw fail("\(error)")
                }
                say("\(target.device): signed out of \(account)\(delete ? ", synced passwords deleted from this device" : ", copies kept")")
            }
        }

        /// `kclab device icloud sign-in ACCOUNT`
        struct SignIn: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "sign-in",
                abstract: "Sign the signed-out device in to an iCloud account the world lets it use.",
                discussion: """
                    The accounts a device may use are its iCloudAccount and those its iCloudAccounts list names. \
                    The device restarts with that account's certificate; its iCloud Keychain fetches the account's \
                    zones and uploads the synchronizable items the device kept, as a real device merges them.
                    """
            )
            @Argument(help: "The iCloud account (an email address).")
            var account: String
            @OptionGroup var target: Target

            func run() async throws {
                let state = LabState(root: URL(fileURLWithPath: target.state))
                do {
                    try await Lab.signIn(target.device, account: account, state: state)
                } catch {
                    throw fail("\(error)")
                }
                say("\(target.device): signed in to \(account)")
            }
        }

        struct KeychainSync: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "keychain-sync",
                abstract: "Turn iCloud Keychain off (keeping or deleting this device's copies) or on.",
                discussion: """
                    Off with --delete removes the synchronizable items of Apple's password, credit-card and passkey \
                    groups from this device only, without tombstones: the other devices keep theirs. Third-party apps' \
                    synchronizable items stay either way, as on iOS. On again, the device fetches everything and \
                    uploads what changed meanwhile.
                    """
            )

            enum Setting: String, ExpressibleByArgument, CaseIterable {
                case on, off
            }

            @Argument(help: "on or off.")
            var setting: Setting

            @Flag(help: "With off: keep this device's copies.")
            var keep = false

            @Flag(help: "With off: delete the synced passwords, credit cards and passkeys from this device.")
            var delete = false

            @OptionGroup var target: Target

            func validate() throws {
                switch setting {
                case .off where keep == delete: throw ValidationError("turning iCloud Keychain off asks: give --keep or --delete")
                case .on where keep || delete: throw ValidationError("--keep and --delete go with off")
                default: break
                }
            }

            func run() throws {
                let control: SyncControl = setting == .on ? .on : (delete ? .offDelete : .offKeep)
                let response = try target.client().send(DeviceRequest(.sync(control)))
                if let error = response.error { throw fail(error) }
                let what = setting == .on ? "on" : delete ? "off, synced passwords deleted from this device" : "off, copies kept"
                say("\(target.device): iCloud Keychain \(what)")
            }
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lock the device's screen.")
        @OptionGroup var target: Target
        func run() throws { try target.send(.lock) }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unlock the device with its passcode.")
        @OptionGroup var target: Target
        func run() throws { try target.send(.unlock) }
    }

    struct Reboot: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restart the device: locked, and not unlocked since it started.")
        @OptionGroup var target: Target
        func run() throws { try target.send(.reboot) }
    }

    struct SetPasscode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-passcode",
            abstract: "Set a passcode: the device can be locked, and items protected when-passcode-set can be added."
        )
        @OptionGroup var target: Target
        func run() throws { try target.send(.setPasscode) }
    }

    struct LockKeychain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lock-keychain", abstract: "Lock a Mac's login keychain.")
        @OptionGroup var target: Target
        func run() throws { try target.sendKeychain(DeviceRequest(.lockKeychain)) }
    }

    struct UnlockKeychain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock-keychain",
            abstract: "Unlock a Mac's login keychain with the user's password, or --password (a wrong one is errSecAuthFailed, -25293)."
        )
        @OptionGroup var target: Target
        @Option(help: "The password to try instead of the user's own.")
        var password: String?
        func run() throws {
            try target.sendKeychain(DeviceRequest(.unlockKeychain(password: password)))
        }
    }

    struct RemovePasscode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-passcode",
            abstract: "Remove the passcode: as on iOS, every item protected when-passcode-set (akpu) is deleted."
        )
        @OptionGroup var target: Target
        func run() throws { try target.send(.removePasscode) }
    }
}
