import Crypto
public import Foundation
public import LabErrors

/// An app bundle directory as KeychainLab lays it out, after a real `.app`:
///
/// ```
/// AppOne.app/
///   Info.plist                              CFBundleIdentifier, CFBundleExecutable, ...
///   embedded.mobileprovision                the CMS-signed provisioning profile (absent for a Mac
///                                           app signed with Developer ID and no profile)
///   archived-expanded-entitlements.xcent    the signed entitlements, readable
///   AppOne                                  the executable
///   _CodeSignature/CodeSignature            CMS by the team certificate over the code directory
/// ```
public struct AppBundle: Sendable {
    /// Where the parts live inside the bundle.
    public enum Layout {
        public static let infoPlist = "Info.plist"
        public static let profile = "embedded.mobileprovision"
        public static let entitlements = "archived-expanded-entitlements.xcent"
        public static let codeSignature = "_CodeSignature/CodeSignature"
    }

    /// The bundle directory.
    public let url: URL
    /// `Info.plist`'s bytes.
    public let infoPlist: Data
    /// `CFBundleIdentifier`.
    public let bundleIdentifier: String
    /// `CFBundleExecutable`.
    public let executableName: String
    /// The signed files.
    public let signed: SignedApp
    /// The readable entitlements file, when present.
    public let entitlementsFile: Data?

    /// Reads a bundle's files; a missing or unreadable part is an error naming it.
    public init(at url: URL) throws(IdentityError) {
        self.url = url
        infoPlist = try Self.read(url, Layout.infoPlist)
        let info = try PlistValue.dictionary(fromPropertyList: infoPlist)
        guard let identifier = info["CFBundleIdentifier"]?.string, let executable = info["CFBundleExecutable"]?.string else {
            throw IdentityError(.malformedPropertyList, "Info.plist lacks CFBundleIdentifier or CFBundleExecutable")
        }
        guard !executable.contains("/"), executable != "..", !executable.isEmpty else {
            throw IdentityError(.malformedPropertyList, "CFBundleExecutable '\(executable)' is not a file name")
        }
        bundleIdentifier = identifier
        executableName = executable
        // No profile is an empty one: only a Mac installs such a bundle (SignatureVerifier).
        let hasProfile = FileManager.default.fileExists(atPath: url.appending(path: Layout.profile).path)
        signed = SignedApp(
            profile: hasProfile ? try Self.read(url, Layout.profile) : Data(),
            codeSignature: try Self.read(url, Layout.codeSignature)
        )
        entitlementsFile = try? Data(contentsOf: url.appending(path: Layout.entitlements))
    }

    /// The name a user sees, as alerts show it: CFBundleDisplayName, else CFBundleName, else the
    /// bundle ID.
    public var displayName: String {
        let info = try? PlistValue.dictionary(fromPropertyList: infoPlist)
        return info?["CFBundleDisplayName"]?.string ?? info?["CFBundleName"]?.string ?? bundleIdentifier
    }

    /// The executable's location.
    public var executableURL: URL {
        url.appending(path: executableName)
    }

    /// SHA-256 of the executable, read in chunks so large binaries need little memory.
    public func executableDigest() throws(IdentityError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: executableURL)
            defer { try? handle.close() }
            var hasher = SHA256()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
            return Data(hasher.finalize())
        } catch {
            throw IdentityError(.unreadableFile, "cannot read the executable \(executableName): \(error.localizedDescription)", cause: error)
        }
    }

    private static func read(_ bundle: URL, _ path: String) throws(IdentityError) -> Data {
        do {
            return try Data(contentsOf: bundle.appending(path: path))
        } catch {
            throw IdentityError(.unreadableFile, "the bundle has no readable \(path)")
        }
    }
}
