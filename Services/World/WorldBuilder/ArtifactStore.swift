import Crypto
import Foundation
import LabErrors
import WorldLayout

/// Writes a world's files so that a rebuild of an unchanged world changes nothing.
///
/// Every artifact is made from inputs; the store records a digest of them in `manifest.json`. When
/// the file is still there and its inputs have not changed, the store keeps the file as it is (same
/// keys, same certificates, same signatures) instead of making it again.
struct ArtifactStore {
    let layout: WorldLayout
    private var manifest: [String: String]
    private var produced: Set<String> = []
    private(set) var written: [String] = []
    private(set) var unchanged = 0

    init(layout: WorldLayout) throws(BuildError) {
        self.layout = layout
        let url = layout.url(WorldLayout.manifestFile)
        if let data = try? Data(contentsOf: url) {
            guard let decoded = try? JSONDecoder().decode([String: String].self, from: data) else {
                throw BuildError(.corruptArtifact, "\(url.path) is not a KeychainLab manifest; remove it to rebuild everything")
            }
            manifest = decoded
        } else {
            manifest = [:]
        }
    }

    /// The artifact at `path`: kept when it exists, `fingerprint` matches the recorded one and
    /// `isCurrent` accepts it; otherwise made with `make` and written with `permissions`.
    mutating func produce(
        _ path: String,
        fingerprint: String,
        permissions: Int = 0o644,
        isCurrent: (Data) -> Bool = { _ in true },
        make: () throws(BuildError) -> Data
    ) throws(BuildError) -> Data {
        produced.insert(path)
        let url = layout.url(path)
        if manifest[path] == fingerprint, let existing = try? Data(contentsOf: url), isCurrent(existing) {
            unchanged += 1
            return existing
        }
        let data = try make()
        try write(data, to: url, permissions: permissions)
        manifest[path] = fingerprint
        written.append(path)
        return data
    }

    /// Writes `data` unless the file already holds exactly these bytes.
    mutating func put(_ path: String, _ data: Data, permissions: Int = 0o644) throws(BuildError) -> Data {
        try produce(path, fingerprint: Self.digest(data), permissions: permissions, make: { data })
    }

    /// Removes what an earlier build made and this one did not (an app taken out of the world),
    /// then saves the manifest.
    mutating func finish() throws(BuildError) {
        for path in manifest.keys.sorted() where !produced.contains(path) {
            try? FileManager.default.removeItem(at: layout.url(path))
            manifest[path] = nil
            written.append("-" + path)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(manifest)) ?? Data()
        let url = layout.url(WorldLayout.manifestFile)
        if (try? Data(contentsOf: url)) != data {
            try write(data, to: url, permissions: 0o644)
        }
    }

    /// Hex SHA-256 of `parts`, each length-prefixed so that no two lists collide.
    static func fingerprint(_ parts: [any DataProtocol]) -> String {
        var hasher = SHA256()
        for part in parts {
            var length = UInt64(part.count).bigEndian
            withUnsafeBytes(of: &length) { hasher.update(bufferPointer: $0) }
            hasher.update(data: Data(part))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Hex SHA-256 of one value.
    static func digest(_ data: some DataProtocol) -> String {
        fingerprint([data])
    }

    private func write(_ data: Data, to url: URL, permissions: Int) throws(BuildError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).tmp")
            // Secrets are created with their final permissions so they are never readable by others.
            guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: permissions]) else {
                throw BuildError(.io, "cannot write \(url.path)")
            }
            // rename(2) replaces the old file atomically: a reader sees the old bytes or the new.
            guard rename(temporary.path, url.path) == 0 else {
                throw BuildError(.io, "cannot move \(temporary.path) into place (errno \(errno))")
            }
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(.io, "cannot write \(url.path): \(error.localizedDescription)", cause: error)
        }
    }
}
