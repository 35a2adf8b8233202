public import CMSSupport
import Crypto
public import Foundation
import Synchronization

/// A ``SignatureVerifier`` that checks each set of signed files once for every device: a
/// thousand devices installing the same app cost one signature check and a look at the
/// profile's device list each, where each used to cost the whole check (CMS signatures,
/// certificate chains, the profile). A device a development profile does not list gets the whole
/// check again, with its exact refusals.
///
/// Only apps that verified are kept, by the SHA-256 of their files and the platform they were
/// checked for; an entry serves for ``maximumAge`` at most and only while its profile is in date,
/// and at most ``capacity`` are kept (past it the cache starts again). keychaind, associationd and
/// webcredentiald each check apps through one.
public final class SharedSignatureChecks: Sendable {
    private struct Key: Hashable {
        let files: Data
        let platform: Platform?
    }

    private let verifier: SignatureVerifier
    // The verified apps and when each was checked; every access goes through this Mutex.
    private let verified = Mutex<[Key: (app: VerifiedApp, checked: Date)]>([:])

    /// How long a check stands before the files are checked again (a certificate may expire).
    public static let maximumAge: TimeInterval = 600
    public static let capacity = 4096

    public init(trust: TrustStore) {
        verifier = SignatureVerifier(trust: trust)
    }

    /// As ``SignatureVerifier/verify(_:device:platform:at:)``.
    public func verify(_ app: SignedApp, device: String? = nil, platform: Platform? = nil, at date: Date = Date()) -> SignatureCheck {
        var hasher = SHA256()
        hasher.update(data: app.profile)
        hasher.update(data: Data([0]))
        hasher.update(data: app.codeSignature)
        let key = Key(files: Data(hasher.finalize()), platform: platform)
        if let known = verified.withLock({ $0[key] }), Self.stands(known.app, checked: known.checked, device: device, at: date) {
            var check = SignatureCheck()
            check.verified = known.app
            check.appID = known.app.appID
            check.teamID = known.app.teamID
            check.codeDirectory = known.app.codeDirectory
            return check
        }
        let check = verifier.verify(app, device: device, platform: platform, at: date)
        if let app = check.verified {
            verified.withLock { verified in
                if verified.count >= Self.capacity { verified.removeAll() }
                verified[key] = (app, date)
            }
        }
        return check
    }

    /// Whether a check made at `checked` still answers for `device` at `date`.
    private static func stands(_ app: VerifiedApp, checked: Date, device: String?, at date: Date) -> Bool {
        guard date >= checked, date.timeIntervalSince(checked) < maximumAge else { return false }
        guard let profile = app.profile else { return true }
        return profile.expirationDate > date && (device.map { profile.provisions(device: $0) } ?? true)
    }
}
