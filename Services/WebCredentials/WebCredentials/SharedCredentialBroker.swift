import AppIdentity
import KeychainTypes
import UserAnswers
import WebCredentialAPI

/// `SecAddSharedWebCredential` and `SecRequestSharedWebCredential` as securityd (and, from iOS
/// 15.4, AuthenticationServices) answer them, step by step (spec associations.md d.2–d.5).
///
/// A call that needs the user's consent returns the prompt instead of a result; the device shows
/// it to its user and makes the same call again with the answer. Every check runs again then, so
/// nothing is held between the two and a changed keychain gets a fresh prompt.
public struct SharedCredentialBroker: Sendable {
    let keychain: any SavedPasswordKeychain
    let sites: any SiteApprovals
    let users: any UserApprovals

    public init(keychain: any SavedPasswordKeychain, sites: any SiteApprovals, users: any UserApprovals) {
        self.keychain = keychain
        self.sites = sites
        self.users = users
    }

    /// A service the broker needs could not be reached.
    struct Unreachable: Error {
        let outcome: WebCredentialAPI.Outcome
    }

    /// The answer `consent` gives to `prompt`, if it answers that very prompt.
    static func answer(to prompt: Prompt, in consent: Consent?) -> PromptAnswer? {
        guard let consent, consent.prompt == prompt.id else { return nil }
        return consent.answer
    }

    /// Site approval, with associationd's failure as an outcome.
    func isApproved(_ appID: AppID, _ host: String) async throws(Unreachable) -> Bool {
        do {
            return try await sites.isApproved(appID: appID, host: host)
        } catch {
            throw Unreachable(
                outcome: .failure(
                    SecStatus.notAvailable.code,
                    "associationd cannot be reached to approve \(host); try again",
                    reason: "associationd is unreachable: \(error)"
                )
            )
        }
    }

    /// A keychain call, with keychaind's failure as an outcome.
    func keychain(_ call: SecItemCall, _ query: [String: SecValue], changes: [String: SecValue]? = nil) async throws(Unreachable) -> KeychainAnswer {
        do {
            return try await keychain.call(call, query: query, attributesToUpdate: changes)
        } catch {
            throw Unreachable(
                outcome: .failure(SecStatus.notAvailable.code, "keychaind cannot be reached; try again", reason: "keychaind is unreachable: \(error)")
            )
        }
    }

    /// The saved passwords matching `query` (an empty list when none).
    func saved(_ query: [String: SecValue]) async throws(Unreachable) -> [SavedPassword] {
        let answer = try await keychain(.copyMatching, SavedPasswordItems.copyAll(query))
        return answer.status == 0 ? SavedPassword.list(answer.result) : []
    }
}
