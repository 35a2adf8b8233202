import AppIdentity
import CMSSupport
import Crypto
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import ServiceSupport
import Synchronization

/// The apps each device has registered, verified by keychaind itself from their signatures.
///
/// A verification is cached by the SHA-256 of the signed files (and the device, since development
/// profiles list devices) until the profile expires; another device registering the same files
/// reuses the signature check (``SharedSignatureChecks``) and has only the profile's device list
/// checked. A call naming an app its device did not register is refused.
final class AppRegistry: Sendable {
    struct Entry: Sendable {
        let app: VerifiedApp
        let reference: String
    }

    private let verifier: SharedSignatureChecks
    private let now: @Sendable () -> Date
    /// Where a device's registrations are verified: off the threads that answer calls, in turn by
    /// device, within `budget` (docs/reliability.md, "Time").
    private let verifying = FairWorkPool(name: "verify", maximumQueued: 256)
    static let budget: Duration = .seconds(5)
    // The registry's state; every access goes through this Mutex.
    private let entries = Mutex<[String: Entry]>([:])

    init(trust: TrustStore, now: @escaping @Sendable () -> Date) {
        verifier = SharedSignatureChecks(trust: trust)
        self.now = now
    }

    /// ``register(_:device:platform:)`` on the verifying threads, in `device`'s turn; nil when it
    /// did not finish within ``budget`` or too many registrations wait.
    func registerInTurn(_ registration: KeychainAPI.AppRegistration, device: String, platform: Platform?) async -> Result<Entry, SignatureFailure>? {
        switch await verifying.run(key: device, budget: Self.budget, { self.register(registration, device: device, platform: platform) }) {
        case .done(let result): result
        case .busy, .overBudget: nil
        }
    }

    /// Verifies and records `registration` for `device`, a device of `platform` (as it reported);
    /// the refusals when it is not valid.
    func register(_ registration: KeychainAPI.AppRegistration, device: String, platform: Platform?) -> Result<Entry, SignatureFailure> {
        let reference = Self.reference(registration)
        if let entry = lookup(reference, device: device) { return .success(entry) }
        let signed = SignedApp(profile: registration.profile, codeSignature: registration.codeSignature)
        let check = verifier.verify(signed, device: device, platform: platform, at: now())
        guard let verified = check.verified else {
            return .failure(SignatureFailure(appID: check.appID, refusals: check.refusals))
        }
        let entry = Entry(app: verified, reference: reference)
        entries.withLock { $0[Self.key(reference, device)] = entry }
        return .success(entry)
    }

    /// The app `reference` names on `device`, while its profile (if it has one) is in date.
    func lookup(_ reference: String, device: String) -> Entry? {
        let key = Self.key(reference, device)
        guard let entry = entries.withLock({ $0[key] }) else { return nil }
        if isExpired(entry.app) {
            entries.withLock { _ = $0.removeValue(forKey: key) }
            return nil
        }
        return entry
    }

    /// Whether `app`'s profile has expired since it was verified.
    private func isExpired(_ app: VerifiedApp) -> Bool {
        app.profile.map { $0.expirationDate <= now() } ?? false
    }

    static func reference(_ registration: KeychainAPI.AppRegistration) -> String {
        var hasher = SHA256()
        hasher.update(data: registration.profile)
        hasher.update(data: registration.codeSignature)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private static func key(_ reference: String, _ device: String) -> String {
        device + "/" + reference
    }
}

/// Why a registration was refused.
struct SignatureFailure: Error, Sendable {
    let appID: AppID?
    let refusals: [Refusal]
}
