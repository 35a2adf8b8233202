import KeychainTypes
import Testing

/// Keychain names, built and read by one type (issue 25).
@Suite struct KeychainNameTests {
    @Test(arguments: [
        (KeychainName.device("00008110-001A"), "device:00008110-001A"),
        (.login("3B524EF0"), "login:3B524EF0"),
    ])
    func roundTrips(name: KeychainName, raw: String) {
        #expect(name.rawValue == raw)
        #expect(KeychainName(rawValue: raw) == name)
    }

    @Test(arguments: ["", "device:", "phone:1", "device", "login", "icloud:alice@example.com"])
    func refusesWhatIsNotAKeychain(raw: String) {
        #expect(KeychainName(rawValue: raw) == nil)
    }
}
