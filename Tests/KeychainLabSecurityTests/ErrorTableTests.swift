import KeychainLab
import KeychainLabSecurity
import Testing

@Suite("The errSec table")
struct ErrorTableTests {
    @Test("every status has one name, and every name one status")
    func namesAreUnique() {
        let names = secErrorTable.map(\.name)
        let statuses = secErrorTable.map(\.status)
        #expect(Set(names).count == names.count)
        #expect(Set(statuses).count == statuses.count)
    }

    @Test(
        "constants have SecBase.h's values",
        arguments: [
            (errSecSuccess, 0), (errSecUnimplemented, -4), (errSecParam, -50), (errSecAllocate, -108),
            (errSecUserCanceled, -128), (errSecNotAvailable, -25291), (errSecDuplicateItem, -25299),
            (errSecItemNotFound, -25300), (errSecNoSuchAttr, -25303), (errSecNoSuchClass, -25306),
            (errSecInteractionNotAllowed, -25308), (errSecDecode, -26275), (errSecMissingEntitlement, -34018), (errSecRestrictedAPI, -34020),
            (errSecServiceNotAvailable, -67585), (errSecInternalError, -67671), (errSecNotTrusted, -67843),
            (errSecInvalidEncoding, -67853), (errSecCertificateValidityPeriodTooLong, -67901),
            (errSSLProtocol, -9800), (errSSLPeerUnknownCA, -9831), (errSSLATSCertificateTrustViolation, -9886),
        ] as [(OSStatus, Int)]
    )
    func values(constant: OSStatus, expected: Int) {
        #expect(Int(constant) == expected)
    }

    @Test("the table covers SecBase.h's result codes and the SecureTransport codes")
    func coverage() {
        let range = secErrorTable.filter { (-67901 ... -67585).contains($0.status) }
        #expect(range.count == 317)
        #expect(secErrorTable.filter { $0.name.hasPrefix("errSSL") }.count == 73)
        #expect(secErrorTable.count >= 450)
    }

    @Test("SecCopyErrorMessageString words each status as Apple does")
    func messages() {
        #expect(message(errSecItemNotFound) == "The specified item could not be found in the keychain.")
        #expect(message(errSecDuplicateItem) == "The specified item already exists in the keychain.")
        #expect(message(errSecMissingEntitlement) == "A required entitlement isn't present.")
        #expect(message(errSecInvalidEncoding) == "The encoding was not valid.")
        #expect(message(errSecInDarkWake) == "In dark wake, no UI possible")
        #expect(message(-1234) == "OSStatus -1234")
        #expect(message(errSecInternalComponent) == "OSStatus -2070")
    }

    @Test("names resolve both ways")
    func names() {
        #expect(KeychainError.name(of: -25300) == "errSecItemNotFound")
        #expect(KeychainError.name(of: -67853) == "errSecInvalidEncoding")
        #expect(KeychainError.name(of: 1) == nil)
        #expect(KeychainError(status: errSecNoSuchAttr).name == "errSecNoSuchAttr")
    }

    private func message(_ status: OSStatus) -> String? {
        SecCopyErrorMessageString(status, nil).map { String(describing: $0) }
    }
}
