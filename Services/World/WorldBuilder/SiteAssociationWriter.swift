import Foundation
import LabErrors
import WorldFile
import WorldLayout

/// Writes the apple-app-site-association file each host serves: the JSON as it is, or signed with
/// `openssl smime` exactly as seed 002's Listing 2 does.
enum SiteAssociationWriter {
    /// Writes `file` for `host`; a signed file is signed by `identity`, whose certificate is the one
    /// at `signerHost`'s folder (the host's own, unless a broken site borrows another's).
    static func write(
        _ file: SiteAssociationFile,
        host: String,
        identity: Identity,
        signerHost: String? = nil,
        store: inout ArtifactStore
    ) throws(BuildError) {
        let signer = signerHost ?? host
        let path = WorldLayout.siteAssociation(host)
        _ = try store.put(path + ".json", file.json)
        guard file.signed else {
            _ = try store.put(path, file.json)
            return
        }
        let root = store.layout.root
        _ = try store.produce(
            path,
            fingerprint: ArtifactStore.fingerprint([Data("aasa-smime-v1".utf8), file.json, identity.certificateDER]),
            make: { () throws(BuildError) -> Data in
                // `cat json.txt | openssl smime -sign ...` of Listing 2, with -in and -out for the pipes.
                try OpenSSLCommand.run([
                    "smime", "-sign",
                    "-in", root.appending(path: path + ".json").path,
                    "-inkey", root.appending(path: WorldLayout.key(for: WorldLayout.hostCertificate(signer))).path,
                    "-signer", root.appending(path: WorldLayout.hostCertificate(signer)).path,
                    "-certfile", root.appending(path: WorldLayout.webCA).path,
                    "-noattr", "-nodetach", "-outform", "DER",
                ])
            }
        )
    }
}

/// Runs the `openssl` command, as the seeds do.
enum OpenSSLCommand {
    /// Runs `openssl ARGUMENTS -out FILE` and returns what it wrote.
    static func run(_ arguments: [String]) throws(BuildError) -> Data {
        let output = FileManager.default.temporaryDirectory.appending(path: "kclab-openssl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments + ["-out", output.path]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BuildError(.tool, "cannot run openssl (install Debian's openssl package): \(error.localizedDescription)")
        }
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else {
            throw BuildError(.tool, "openssl \(arguments.first ?? "") failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return data
    }
}
