public import Foundation
import KeychainTypes

/// A trusted application (`SecTrustedApplicationRef`) of macOS's legacy access control lists: an
/// app that an item of the login keychain lets use its secret without asking the Mac's user. Made
/// from no path it is the calling app, which keychaind lists by its application identifier, as it
/// lists every lab app; made from a path it stays that path on the list, which names no lab app.
public final class SecTrustedApplication: NSObject, @unchecked Sendable {
    // Immutable after init; @unchecked only because NSObject is not Sendable.
    let application: LegacyAccess.TrustedApplication

    init(_ application: LegacyAccess.TrustedApplication) {
        self.application = application
    }

    public override var description: String {
        switch application {
        case .caller: "<SecTrustedApplication (this app)>"
        case .path(let path): "<SecTrustedApplication \(path)>"
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? SecTrustedApplication)?.application == application
    }

    public override var hash: Int { application.hashValue }
}

/// Apple's name for a reference to a ``SecTrustedApplication``.
public typealias SecTrustedApplicationRef = SecTrustedApplication

/// Makes a trusted application of the application or tool at `path`, or of the calling app when
/// `path` is `nil`. A Mac reads the program's code signature there; the lab reads nothing, so any
/// path is taken (the test hosts name macOS's own, `/System/Library/CoreServices/SystemUIServer.app`).
public func SecTrustedApplicationCreateFromPath(
    _ path: UnsafePointer<CChar>?,
    _ app: UnsafeMutablePointer<SecTrustedApplication?>
) -> OSStatus {
    app.pointee = SecTrustedApplication(path.map { .path(String(cString: $0)) } ?? .caller)
    return errSecSuccess
}
