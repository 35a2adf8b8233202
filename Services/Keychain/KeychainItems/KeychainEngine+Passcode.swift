import KeychainTypes

extension KeychainEngine {
    /// What iOS does when the passcode is removed: every item of the device's keychain protected
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (akpu) is deleted, since the key that
    /// protected it was bound to the passcode. Returns how many went. (akpu items are never
    /// synchronizable, so only the device's own keychain holds them.)
    public func passcodeRemoved(deviceKeychain: String) async throws -> Int {
        try await store.write { writer in
            var removed = 0
            for itemClass in ItemClass.allCases where itemClass != .identity {
                let filter = ItemFilter(
                    keychains: [deviceKeychain],
                    itemClass: itemClass,
                    attributes: ["pdmn": .string(Accessibility.whenPasscodeSetThisDeviceOnly.rawValue)]
                )
                for item in try writer.items(matching: filter) {
                    try writer.remove(item)
                    removed += 1
                }
            }
            return removed
        }
    }
}
