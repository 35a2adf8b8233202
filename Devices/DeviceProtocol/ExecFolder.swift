public import Foundation

/// Where `kclab app exec` may run a program: the caller's working directory, which the program
/// may then read and write. Never a folder that holds the lab's own state (the built world's CA
/// keys, keychaind's keys and database, the devices' sockets), nor one inside it: an app given
/// that folder could read the lab's secrets. kclab asks before it sends a folder; the device
/// checks again before it runs anything there.
public enum ExecFolder {
    /// The lab folders that `folder` holds or is inside, resolved; empty when it may be used.
    public static func conflicts(_ folder: URL, protecting lab: [URL]) -> [URL] {
        let resolved = folder.standardizedFileURL.resolvingSymlinksInPath()
        return lab.map { $0.standardizedFileURL.resolvingSymlinksInPath() }.filter { guarded in
            resolved.pathComponents.starts(with: guarded.pathComponents) || guarded.pathComponents.starts(with: resolved.pathComponents)
        }
    }

    /// The lab folders a device protects: its own folder, the built world, and the lab's state
    /// folder when the device's folder is the lab's `devices/ID`.
    public static func protected(deviceState: URL, builtWorld: URL) -> [URL] {
        let devices = deviceState.deletingLastPathComponent()
        return [deviceState, builtWorld] + (devices.lastPathComponent == "devices" ? [devices.deletingLastPathComponent()] : [])
    }

    /// Why `folder` may not be used (as `role`: the working directory, or a folder to read), and
    /// what to do; nil when it may.
    public static func refusal(_ folder: URL, protecting lab: [URL], role: String = "the working directory") -> String? {
        guard let guarded = conflicts(folder, protecting: lab).first else { return nil }
        return "\(role) \(folder.path) holds or is inside the lab's state (\(guarded.path)), which an app must not read: "
            + "start the lab with --state outside it (kclab up --state /tmp/lab), or run from another folder"
    }
}
