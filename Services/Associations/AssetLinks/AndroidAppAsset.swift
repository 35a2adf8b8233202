/// An Android app as asset links name it: its package name and the SHA-256 fingerprints of the
/// certificates that sign it, each 32 upper-case hexadecimal octets joined by colons (as
/// `keytool -printcert` prints them). A statement listing several fingerprints is one statement
/// per fingerprint.
public struct AndroidAppAsset: Sendable, Hashable, CustomStringConvertible {
    public let packageName: String
    public let fingerprints: [String]

    /// Checks each part, or says which rule one breaks.
    public init(packageName: String, fingerprints: [String]) throws(AssetLinksProblem) {
        try Self.checkPackageName(packageName)
        guard !fingerprints.isEmpty else {
            throw AssetLinksProblem(.fingerprints, "sha256_cert_fingerprints must contain at least one certificate's fingerprint")
        }
        for fingerprint in fingerprints { try Self.checkFingerprint(fingerprint) }
        self.packageName = packageName
        self.fingerprints = fingerprints
    }

    /// A Java-style package name: dot-separated parts of letters, digits and `_`, each starting
    /// with a letter (Android's rule for an application ID).
    public static func checkPackageName(_ name: String) throws(AssetLinksProblem) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !name.isEmpty
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
                return part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            }
        guard valid else {
            throw AssetLinksProblem(.packageName, "'\(name)' is not a package name (such as com.example.app)")
        }
    }

    /// 32 upper-case hexadecimal octets joined by colons.
    public static func checkFingerprint(_ text: String) throws(AssetLinksProblem) {
        let upperHex: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        let wellFormed = { (candidate: String) in
            let octets = candidate.split(separator: ":", omittingEmptySubsequences: false)
            return octets.count == 32 && octets.allSatisfy { $0.unicodeScalars.count == 2 && $0.unicodeScalars.allSatisfy(upperHex) }
        }
        guard wellFormed(text) else {
            // Only its case is wrong: Android reads it (and compares it as text, so it never matches).
            let caseOnly = wellFormed(text.uppercased())
            let hint =
                caseOnly
                ? ": write it in upper case (Android compares it as text, so a lower-case one never matches)"
                : ": it must be 32 upper-case hex octets joined by colons, as keytool -printcert prints the SHA-256"
            throw AssetLinksProblem(.fingerprintFormat, "'\(text)' is a malformed certificate fingerprint\(hint)", androidReads: caseOnly)
        }
    }

    public var description: String { "\(packageName) (\(fingerprints.count) certificates)" }
}

/// What a statement is about: a website or an Android app.
public enum Asset: Sendable, Hashable, CustomStringConvertible {
    case web(WebAsset)
    case androidApp(AndroidAppAsset)

    public var description: String {
        switch self {
        case .web(let site): site.description
        case .androidApp(let app): app.description
        }
    }
}
