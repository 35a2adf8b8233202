import AppIdentity
import CMSSupport
import Crypto
import Foundation
import LabErrors
import WorldFile
import WorldLayout

/// Writes an app's bundle: Info.plist, the executable, the profile, the readable entitlements and
/// the code signature, then any deliberate damage the world asks for.
struct BundleWriter {
    let app: App
    let profile: Data
    let signer: Identity
    let programs: URL?

    /// The file name of the executable: the app's name without spaces or punctuation.
    var executableName: String {
        let name = app.name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return name.isEmpty ? "App" : name
    }

    func write(_ store: inout ArtifactStore) throws(BuildError) {
        let bundle = WorldLayout.bundle(for: app)
        let info = try store.put("\(bundle)/\(AppBundle.Layout.infoPlist)", infoPlist)
        let executable = try executableBytes()
        _ = try store.put("\(bundle)/\(executableName)", tampered(executable), permissions: 0o755)
        if !profile.isEmpty {
            _ = try store.put("\(bundle)/\(AppBundle.Layout.profile)", profile)
        }
        let entitlements = app.signedEntitlements
        _ = try store.put("\(bundle)/\(AppBundle.Layout.entitlements)", tampered(entitlements).propertyList)
        let directory = CodeDirectory(
            identifier: app.bundleID,
            teamIdentifier: app.team,
            entitlements: entitlements,
            executableDigest: Data(SHA256.hash(data: executable)),
            infoPlistDigest: Data(SHA256.hash(data: info)),
            profileDigest: Data(SHA256.hash(data: profile))
        )
        let content = directory.propertyList
        let signer = self.signer
        _ = try store.produce(
            "\(bundle)/\(AppBundle.Layout.codeSignature)",
            fingerprint: ArtifactStore.fingerprint([Data("code-signature-v1".utf8), content, signer.certificateDER]),
            make: { () throws(BuildError) -> Data in
                do {
                    return try CMSSigner(certificatePEM: signer.pem, privateKeyPEM: signer.keyPEM, chainPEM: signer.chain).sign(content)
                } catch {
                    throw BuildError(.signing, "cannot sign \(app.bundleID): \(error)", cause: error)
                }
            }
        )
    }

    private var infoPlist: Data {
        PlistValue.xmlPropertyList([
            "CFBundleIdentifier": .string(app.bundleID.rawValue),
            "CFBundleExecutable": .string(executableName),
            "CFBundleName": .string(app.name),
            "CFBundleDisplayName": .string(app.name),
            "CFBundlePackageType": .string("APPL"),
            "CFBundleVersion": .string("1"),
            "CFBundleShortVersionString": .string("1.0"),
            "CFBundleSupportedPlatforms": .array([.string(app.platform == .ios ? "iPhoneOS" : "MacOSX")]),
        ])
    }

    /// The world's executable or program, or a small script that says which app it stands for.
    private func executableBytes() throws(BuildError) -> Data {
        // The built-in browser ships its program when the folder is given, a placeholder otherwise.
        if let program = app.program, programs != nil || app.bundleID != World.browserBundleID {
            guard let programs else {
                throw BuildError(.io, "\(app.bundleID) names the program \(program), but no program folder was given")
            }
            do {
                return try Data(contentsOf: programs.appending(path: program))
            } catch {
                throw BuildError(.io, "\(app.bundleID) names the program \(program), which is not in \(programs.path): build it with swift build")
            }
        }
        if let url = app.executable {
            do {
                return try Data(contentsOf: url)
            } catch {
                throw BuildError(.io, "cannot read the executable of \(app.bundleID) at \(url.path)")
            }
        }
        return Data(
            """
            #!/bin/sh
            # Placeholder program of \(app.bundleID), written by kclab world build.
            echo "\(app.name) (\(app.appID)) has no program of its own in this world"

            """.utf8
        )
    }

    private func tampered(_ executable: Data) -> Data {
        guard app.tampering.contains(.replaceExecutable) else { return executable }
        return Data("#!/bin/sh\n# This executable replaced the signed one after signing.\necho pwned\n".utf8)
    }

    private func tampered(_ entitlements: Entitlements) -> Entitlements {
        guard app.tampering.contains(.editEntitlements) else { return entitlements }
        var edited = entitlements
        let groups = (entitlements.keychainAccessGroups ?? []) + ["OTHER98765.stolen-secrets"]
        edited[EntitlementKey.keychainAccessGroups] = .array(groups.map(PlistValue.string))
        return edited
    }
}
