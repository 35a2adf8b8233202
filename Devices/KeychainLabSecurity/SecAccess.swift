public import Foundation
import KeychainTypes

/// An access object (`SecAccessRef`) of macOS's legacy access control lists, for `kSecAttrAccess`:
/// an item added with it to a Mac's login keychain takes its list of trusted apps, and its
/// descriptor as its name in the Mac's prompts. On the data-protection keychain macOS drops it; iOS
/// has no such attribute (errSecNoSuchAttr).
public final class SecAccess: NSObject, @unchecked Sendable {
    // Immutable after init; @unchecked only because NSObject is not Sendable.
    let access: LegacyAccess

    init(_ access: LegacyAccess) {
        self.access = access
    }

    public override var description: String { "<SecAccess \(access.descriptor)>" }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? SecAccess)?.access == access
    }

    public override var hash: Int { access.hashValue }
}

/// Apple's name for a reference to a ``SecAccess``.
public typealias SecAccessRef = SecAccess

/// Makes an access object: `descriptor` names the item in prompts, `trustedlist` (of
/// ``SecTrustedApplication``s) is the apps that may use its secret without asking; `nil` trusts
/// the app that adds the item alone, an empty list no app. Anything but trusted applications in
/// the list is errSecParam.
public func SecAccessCreate(_ descriptor: CFString, _ trustedlist: CFArray?, _ accessRef: UnsafeMutablePointer<SecAccess?>) -> OSStatus {
    var applications: [LegacyAccess.TrustedApplication]? = nil
    if let trustedlist {
        var list: [LegacyAccess.TrustedApplication] = []
        for element in trustedlist {
            guard let application = element as? SecTrustedApplication else { return errSecParam }
            list.append(application.application)
        }
        applications = list
    }
    accessRef.pointee = SecAccess(LegacyAccess(descriptor: String(describing: descriptor), trustedApplications: applications))
    return errSecSuccess
}
