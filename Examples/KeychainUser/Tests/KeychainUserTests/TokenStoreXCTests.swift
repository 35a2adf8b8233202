import KeychainUser
import XCTest

/// An XCTest case beside the Swift Testing suite: `kclab test` runs both kinds of a test bundle.
final class TokenStoreXCTests: XCTestCase {
    func testAnAccountNeverSavedReadsNil() throws {
        XCTAssertNil(try TokenStore(service: "com.example.KeychainUser.tests").read(account: "nobody"))
    }
}
