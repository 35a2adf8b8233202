import Foundation

/// Where the device finds `app-sandbox`, the program it starts every app through (Landlock keeps
/// the app to the system's folders, its own folder and a private temporary one; docs/reliability.md,
/// "Apps in a sandbox"): beside the device's own executable. `KCLAB_APP_SANDBOX=off` in the
/// device's environment runs apps unconfined, for a suite that needs more of the disk.
enum AppSandboxProgram {
    static let path: URL? = {
        if ProcessInfo.processInfo.environment["KCLAB_APP_SANDBOX"] == "off" { return nil }
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let beside = own.deletingLastPathComponent().appending(path: "app-sandbox")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : nil
    }()
}
