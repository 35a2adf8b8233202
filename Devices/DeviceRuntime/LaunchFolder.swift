import Foundation
import Glibc

/// What one launch of an app is given on disk, in the temporary folder, and removed when it ends:
/// a private home (its `TMPDIR` and `HOME`, the one folder of its own it may write), the socket it
/// reaches its device through, and a copy of the world's web root certificate.
struct LaunchFolder {
    let root: URL
    var home: URL { root.appending(path: "home") }
    var socket: URL { root.appending(path: "device.sock") }
    var webTrust: URL { root.appending(path: "web-root-ca.pem") }

    /// Made for `user` (nil: the app keeps the operator's user): the folder stays the device's,
    /// passable but not listable (0711) by a user of the app's own, so that the app reaches its
    /// home (its own, 0700), socket and certificate by name; `webTrust` is copied in when it
    /// exists.
    init(user: AppUser?, webTrust source: URL) throws {
        // Short: a socket's path must fit in 108 bytes.
        root = FileManager.default.temporaryDirectory.appending(path: "kclab-app-\(UUID().uuidString.prefix(13))")
        let manager = FileManager.default
        try manager.createDirectory(at: root, withIntermediateDirectories: false, attributes: [.posixPermissions: user == nil ? 0o700 : 0o711])
        do {
            try manager.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            if manager.fileExists(atPath: source.path) {
                try manager.copyItem(at: source, to: webTrust)
                try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: webTrust.path)
            }
            if let user, chown(home.path, user.id, user.id) != 0 {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: home.path])
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Removes the folder and everything the app left in it.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
