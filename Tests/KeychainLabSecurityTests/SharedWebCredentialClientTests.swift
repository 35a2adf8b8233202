import Dispatch
import Foundation
import KeychainLabSecurity
import Synchronization
import Testing

/// The client side of shared web credentials (spec associations.md d.2, d.6): argument checks
/// that complete on a global queue without asking the device, and the suggested-password format.
@Suite struct SharedWebCredentialClientTests {
    /// Waits for a completion handler, which must run later, off the calling thread.
    static func completion<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            start { value in continuation.resume(returning: value) }
        }
    }

    @Test func addRejectsAnEmptyFQDNOrAccount() async {
        for (fqdn, account) in [("", "alice"), ("example.com", "")] {
            let message = await Self.completion { (done: @escaping @Sendable (String?) -> Void) in
                SecAddSharedWebCredential(fqdn as NSString, account as NSString, "pw" as NSString) { error in
                    done(error.map { "\($0.code) \($0.localizedDescription)" })
                }
            }
            #expect(message == "-50 fqdn or account was not of type CFString, or not provided")
        }
    }

    @Test func requestRejectsAnEmptyFQDNOrAccountWithANullArray() async {
        let cases: [(String?, String?, String)] = [
            ("", nil, "fqdn was empty or not a CFString"),
            ("example.com", "", "account was empty or not a CFString"),
        ]
        for (fqdn, account, expected) in cases {
            let (hadArray, message) = await Self.completion { (done: @escaping @Sendable ((Bool, String?)) -> Void) in
                SecRequestSharedWebCredential(fqdn.map { $0 as NSString }, account.map { $0 as NSString }) { credentials, error in
                    done((credentials != nil, error.map { "\($0.domain) \($0.code) \($0.localizedDescription)" }))
                }
            }
            #expect(!hadArray)
            #expect(message == "NSOSStatusErrorDomain -50 \(expected)")
        }
    }

    @Test func outsideADeviceACallIsNotAvailableWithAnEmptyArray() async {
        let (count, code) = await Self.completion { (done: @escaping @Sendable ((Int?, Int?)) -> Void) in
            SecRequestSharedWebCredential("example.com" as NSString, nil) { credentials, error in
                done((credentials?.count, error?.code))
            }
        }
        #expect(count == 0 && code == -25291)
    }

    @Test func suggestedPasswordsHaveSafarisShape() throws {
        let allowed = Set("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        for _ in 0..<200 {
            let password = String(describing: try #require(SecCreateSharedWebCredentialPassword()))
            let groups = password.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 }, "\(password)")
            let characters = groups.joined()
            #expect(characters.allSatisfy(allowed.contains), "\(password)")
            #expect(characters.contains(where: \.isLowercase) && characters.contains(where: \.isUppercase))
            let digits = Set("3456789")
            #expect(characters.contains { digits.contains($0) }, "\(password)")
        }
        #expect(kSecSharedPassword as String == "spwd")
    }
}
