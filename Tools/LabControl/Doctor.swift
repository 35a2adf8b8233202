import CLandlock
public import Foundation
import WebsiteFixture

/// What a machine needs to run the lab, checked one thing at a time (`kclab doctor`): kclab's
/// own programs, nginx and openssl, Swift for the packages `kclab test` runs, Landlock for the
/// apps' sandbox, a writable temporary folder.
public enum Doctor {
    /// One thing checked.
    public struct Finding: Sendable, Hashable, Encodable {
        public enum Level: String, Sendable, Hashable, Encodable {
            /// Present and usable.
            case ok
            /// Usable, with a limit worth knowing.
            case warning
            /// The lab (or part of it) cannot run without it.
            case missing
        }

        public var level: Level
        /// What was checked: `nginx`, `openssl`, `swift`…
        public var subject: String
        /// What was found.
        public var detail: String
        /// How to mend it, when it is not ok.
        public var fix: String?
    }

    /// The programs kclab starts, from the folder it runs from.
    public static let programs = [
        "keychaind", "cloudd", "associationd", "webcredentiald", "cdn", "website", "device", "app-sandbox", "keychainlab-app",
        "console",
    ]
    /// The oldest Swift a package of `import Security` code builds with here.
    public static let swiftVersion = (major: 6, minor: 2)

    /// Every check, in order, on this machine (`path`: where programs are looked up).
    public static func examine(path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") -> [Finding] {
        [
            ownPrograms(), nginx(), tool("openssl", path: path), swift(path: path), landlock(abi: kclab_landlock_abi()), temporaryFolder(),
        ]
    }

    static func ownPrograms(in folder: URL = LabProcesses.binaries) -> Finding {
        let absent = programs.filter { !FileManager.default.isExecutableFile(atPath: folder.appending(path: $0).path) }
        guard absent.isEmpty else {
            return Finding(
                level: .missing,
                subject: "kclab's programs",
                detail: "not in \(folder.path): \(absent.joined(separator: ", "))",
                fix: "build them beside kclab (make build in a checkout, or make install)"
            )
        }
        return Finding(level: .ok, subject: "kclab's programs", detail: "all \(programs.count) in \(folder.path)")
    }

    static func nginx() -> Finding {
        let executable = NginxProcess.executable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            return Finding(
                level: .missing,
                subject: "nginx",
                detail: "not at \(executable.path): a world's websites cannot be served",
                fix: "apt-get install nginx"
            )
        }
        let version = output(executable, ["-v"]).flatMap { $0.split(separator: "/").last.map(String.init) } ?? "version unknown"
        return Finding(level: .ok, subject: "nginx", detail: "\(executable.path), \(version)")
    }

    static func tool(_ name: String, path: String) -> Finding {
        guard let found = find(name, path: path) else {
            return Finding(
                level: .missing,
                subject: name,
                detail: "not on PATH: building a world signs its sites' files with it",
                fix: "apt-get install \(name)"
            )
        }
        return Finding(level: .ok, subject: name, detail: "\(found.path), \(output(found, ["version"]) ?? "version unknown")")
    }

    static func swift(path: String) -> Finding {
        let wanted = "\(swiftVersion.major).\(swiftVersion.minor)"
        guard let found = find("swift", path: path) else {
            return Finding(
                level: .warning,
                subject: "swift",
                detail: "not on PATH: the lab runs without it, but kclab test runs packages built with Swift \(wanted) or later",
                fix: "install Swift \(wanted) or later (https://www.swift.org/install/linux/)"
            )
        }
        let text = output(found, ["--version"]) ?? ""
        guard let version = version(in: text) else {
            return Finding(level: .warning, subject: "swift", detail: "\(found.path): cannot read its version from '\(text)'")
        }
        guard version >= swiftVersion else {
            return Finding(
                level: .warning,
                subject: "swift",
                detail: "\(found.path) is Swift \(version.major).\(version.minor); packages using the Security product need \(wanted) or later",
                fix: "install Swift \(wanted) or later (https://www.swift.org/install/linux/)"
            )
        }
        return Finding(level: .ok, subject: "swift", detail: "\(found.path), Swift \(version.major).\(version.minor)")
    }

    /// The apps' sandbox on this machine, as `kclab test` states it in its report's first lines.
    public static var sandbox: Finding { landlock(abi: kclab_landlock_abi()) }

    /// Landlock as the apps' sandbox finds it: ABI 4 adds the network rule.
    static func landlock(abi: Int) -> Finding {
        let root = geteuid() == 0 ? "; as root, apps also give up every capability" : ""
        switch abi {
        case ..<1:
            return Finding(
                level: .warning,
                subject: "Landlock",
                detail: "not available: apps run unconfined and could read the lab's keys",
                fix: "a kernel of 5.13 or later with Landlock among its security modules (lsm=…,landlock)"
            )
        case 1..<4:
            return Finding(
                level: .warning,
                subject: "Landlock",
                detail: "ABI \(abi): apps are kept to their files, but may open any TCP connection (ABI 4, Linux 6.7, limits them)\(root)",
                fix: "a kernel of 6.7 or later"
            )
        default:
            return Finding(level: .ok, subject: "Landlock", detail: "ABI \(abi): apps are kept to their files and the lab's websites\(root)")
        }
    }

    static func temporaryFolder() -> Finding {
        let folder = FileManager.default.temporaryDirectory
        let probe = folder.appending(path: "kclab-doctor-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: false)) != nil else {
            return Finding(
                level: .missing,
                subject: "temporary folder",
                detail: "\(folder.path) is not writable: kclab test and every app's private folder live there",
                fix: "make it writable, or name another with TMPDIR"
            )
        }
        try? FileManager.default.removeItem(at: probe)
        return Finding(level: .ok, subject: "temporary folder", detail: "\(folder.path), writable")
    }

    /// `name` on `path`, as a shell finds it.
    static func find(_ name: String, path: String) -> URL? {
        path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appending(path: name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The major and minor version in `swift --version`'s first line ("Swift version 6.3.1 (…)").
    static func version(in text: String) -> (major: Int, minor: Int)? {
        guard let range = text.firstRange(of: "Swift version ") else { return nil }
        let numbers = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The first line the program prints (on either output), or nil when it cannot run.
    static func output(_ program: URL, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // Version lines are short: the pipe's buffer holds them whole until the program ends.
        process.waitUntilExit()
        let data = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
