import AppIdentity
import Foundation
import KeychainAPI
import KeychainTypes
import LabErrors
import Logging
import NIOHTTP1
import ServiceSupport
import UserAnswers
import WebCredentialAPI
import WorldFile

extension Device {
    /// The Mac user's account password, which is also the login keychain's: the world's passcode,
    /// or empty for a Mac declared without one (macOS allows a blank password).
    var userPassword: String { declaration.passcode ?? "" }

    /// Logs the Mac's user in: the login keychain is unlocked with the account password, and
    /// created with it the first time (as macOS's loginwindow does). A refused password is logged;
    /// the keychain then stays locked until the user unlocks it.
    func logIn() async {
        guard declaration.platform == .macos else { return }
        do {
            loginKeychainLocked = try await unlockLoginKeychain(password: userPassword).isLocked
        } catch {
            logger.warning("the login keychain did not open at login", metadata: ["error": "\(error)"])
        }
    }

    /// Sends `password` to keychaind to unlock the login keychain; a wrong one is a
    /// ``LoginKeychainRefusal``.
    func unlockLoginKeychain(password: String) async throws -> KeychainAPI.LoginKeychainState {
        try await loginKeychain("unlock", KeychainAPI.LoginKeychainUnlock(password: password))
    }

    /// Locks the login keychain (`kclab device lock-keychain`, or the user choosing Lock Keychain).
    func lockLoginKeychain() async throws -> KeychainAPI.LoginKeychainState {
        try await loginKeychain("lock", [String: String]())
    }

    /// `POST /v1/login-keychain/ACTION`; the state keychaind answers is remembered.
    private func loginKeychain(_ action: String, _ body: some Encodable & Sendable) async throws -> KeychainAPI.LoginKeychainState {
        do {
            let state = try await keychain.send(.POST, "/v1/login-keychain/\(action)", body, as: KeychainAPI.LoginKeychainState.self)
            loginKeychainLocked = state.isLocked
            return state
        } catch let failure as ServiceClient.Failure {
            throw LoginKeychainRefusal(failure)
        }
    }

    /// Asks the user to unlock the login keychain for `bundleID`, as a Mac asks ("APP wants to use
    /// the “login” keychain. Please enter the keychain password."): `approve` (or `pick 1`, OK) types
    /// the account password, anything else is Cancel. Returns whether the keychain is now open.
    func askToUnlock(_ keychainName: String, for bundleID: String) async -> Bool {
        let name = app(bundleID)?.installed.bundle.displayName ?? bundleID
        let prompt = Prompt(
            kind: .keychainUnlock,
            app: name,
            domain: "",
            title: "\(name) wants to use the “\(keychainName)” keychain. Please enter the keychain password.",
            messageKey: "KEYCHAIN_UNLOCK",
            approveButton: "OK",
            cancelButton: "Cancel"
        )
        switch await user.answer(prompt, app: bundleID) {
        case .approve, .pick(1):
            do {
                return try await !unlockLoginKeychain(password: userPassword).isLocked
            } catch {
                logger.warning("the login keychain did not open with the user's password", metadata: ["error": "\(error)"])
                return false
            }
        default:
            return false
        }
    }
}

/// keychaind's refusal of a login-keychain request: a wrong password (errSecAuthFailed), or a
/// device that is not a Mac.
struct LoginKeychainRefusal: Error, CustomStringConvertible {
    let failure: ServiceClient.Failure

    init(_ failure: ServiceClient.Failure) {
        self.failure = failure
    }

    var description: String {
        KeychainAPI.Problem(body: failure.body)?.message ?? failure.description
    }
}
