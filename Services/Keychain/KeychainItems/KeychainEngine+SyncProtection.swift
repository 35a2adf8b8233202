import KeychainTypes

extension KeychainEngine {
    /// Refuses a synchronizable item whose protection class is a ThisDeviceOnly one (`aku`,
    /// `cku`, `dku`, `akpu`) with errSecParam (-50).
    ///
    /// Apple's header says such an item "may not" be stored (`SecItem.h`, `kSecAttrAccessible` and
    /// `kSecAttrSynchronizable`; developer.apple.com's page for `kSecAttrSynchronizable`), and CKKS
    /// would never upload it (`CKKSKeychainView.m`, `-handleKeychainEventDbConnection:`). securityd's
    /// code in Security-61901 has no such check (docs/icloud-keychain.md); the lab follows the
    /// documented contract, so an app learns at its add, not on its second device, that the item
    /// stays put (issue 46).
    static func checkSyncProtection(synchronizable: Bool, protection: String?, call: SecItemCall) throws(SecItemError) {
        guard synchronizable, let protection = protection.flatMap(Accessibility.init(rawValue:)), !protection.maySync else { return }
        throw SecItemError(
            .param,
            .queryForm,
            "\(call): kSecAttrSynchronizable with a ThisDeviceOnly accessibility (\(protection.constantName)) is not allowed: "
                + "such an item cannot leave this device"
        )
    }
}

extension ParsedQuery {
    /// The protection class the dictionary names: its `kSecAttrAccessControl`'s, else its
    /// `kSecAttrAccessible` (an update applies them in that order); `nil` when it names none.
    var protection: String? {
        attributes["accc"]?.dictionaryValue?["prot"]?.string ?? attributes["pdmn"]?.string
    }
}
