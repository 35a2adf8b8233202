import Foundation
import Glibc
import StableHash

/// The user an app runs as when its device runs as root (CI, containers): one of the app's own,
/// the same for every launch of that bundle on that device, so that the app owns none of the
/// lab's files, can signal or trace none of the lab's processes, and no other app shares it.
/// A device that does not run as root has no other user to give: its apps keep the operator's,
/// confined by Landlock alone (docs/reliability.md, "Apps in a sandbox").
struct AppUser: Equatable {
    /// Apps' user IDs lie in [first, first + count): far above what Debian gives people
    /// (1000–59999), systemd's dynamic users (61184–65519) and the usual subordinate ranges
    /// (/etc/subuid, from 100000 up), and below 2³¹, which some tools read as signed.
    static let first: UInt32 = 1_500_000_000
    static let count: UInt32 = 1_000_000

    /// The user and group ID (the same number).
    let id: UInt32

    /// The user `bundleID` runs as on `device`: FNV-1a of both names, within the range. Two apps
    /// fall on one ID with odds of one in a million a pair; Landlock still keeps each to its own
    /// files.
    init(device: String, bundleID: String) {
        id = Self.first + UInt32(FNV1a.hash(Array(device.utf8) + [0] + Array(bundleID.utf8)) % UInt64(Self.count))
    }

    /// The app's own user when this process runs as root, else nil.
    static func forLaunch(device: String, bundleID: String) -> AppUser? {
        geteuid() == 0 ? AppUser(device: device, bundleID: bundleID) : nil
    }

    /// Whether a user other than the file's owner and group may read and execute `program` (a
    /// script is read by its interpreter): an `exec`'d program of the operator's alone keeps the
    /// operator's user.
    static func othersMayRun(_ program: URL) -> Bool {
        var status = stat()
        guard stat(program.path, &status) == 0 else { return false }
        return status.st_mode & (S_IROTH | S_IXOTH) == (S_IROTH | S_IXOTH)
    }

    /// Lets this user read `bundle` and execute its programs, never write them: the bundle's
    /// files take the app's group, with the group's read right (and execute where the owner has
    /// it). The device still owns them, and the folders above stay the device's alone: the app
    /// reaches its bundle only as its working folder and its program by a descriptor.
    func grant(bundle: URL) throws {
        var paths = [bundle]
        if let enumerator = FileManager.default.enumerator(at: bundle, includingPropertiesForKeys: nil) {
            while let url = enumerator.nextObject() as? URL { paths.append(url) }
        }
        for url in paths {
            var status = stat()
            guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) != S_IFLNK else { continue }
            let owner = status.st_mode & 0o700
            let group = (owner & 0o400) >> 3 | (owner & 0o100) >> 3
            guard chown(url.path, status.st_uid, id) == 0, chmod(url.path, owner | group) == 0 else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
    }
}
