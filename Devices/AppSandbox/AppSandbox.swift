import CLandlock
import Glibc

/// app-sandbox: what a device starts an app through. It confines itself with Landlock to the
/// system's folders (read and execute), the folders given with `--read`, the folders given with
/// `--write` (everything), and a few devices, then executes the app, which stays confined: the
/// lab's state (keys, databases, other apps' files) is out of its reach, whatever user it runs as.
/// On Landlock ABI 4 and later it may open TCP connections only to the `--connect` ports (the
/// lab's websites), and bind none. Started as root (CI, containers), it first gives up every
/// capability; with `--user UID` it also becomes that user (and group), a user of the app's own,
/// and executes the program through a descriptor it opened before (fexecve), so the program's
/// folder need not be reachable by that user; without, the app keeps root's user ID but none of
/// root's powers.
///
///     app-sandbox [--read DIR]... [--write DIR]... [--connect PORT]... [--user UID] [--require] -- PROGRAM [ARGUMENT]...
///
/// Without Landlock (a kernel before 5.13, or one built without it) the app runs unconfined with
/// a warning, or not at all with `--require`. Exit status 126: the sandbox could not be set up.
@main
enum AppSandbox {
    /// Rights of Landlock's ABI 1 (bits 0–12), REFER from ABI 2 (bit 13), TRUNCATE from ABI 3 (bit 14).
    static let execute: UInt64 = 1 << 0
    static let writeFile: UInt64 = 1 << 1
    static let readFile: UInt64 = 1 << 2
    static let readDir: UInt64 = 1 << 3
    static let systemFolders = ["/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys"]
    static let devices = ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/tty"]

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var readable: [String] = []
        var writable: [String] = []
        var ports: [UInt16] = []
        var require = false
        var user: Int64 = -1
        while let first = arguments.first, first != "--" {
            arguments.removeFirst()
            switch first {
            case "--read" where !arguments.isEmpty: readable.append(arguments.removeFirst())
            case "--write" where !arguments.isEmpty: writable.append(arguments.removeFirst())
            case "--connect" where !arguments.isEmpty:
                guard let port = UInt16(arguments.removeFirst()) else { fail("--connect takes a port") }
                ports.append(port)
            case "--user" where !arguments.isEmpty:
                guard let id = UInt32(arguments.removeFirst()), id != 0, id != UInt32.max else { fail("--user takes a user ID other than 0") }
                user = Int64(id)
            case "--require": require = true
            default: fail("unknown option \(first)")
            }
        }
        arguments = Array(arguments.dropFirst())
        guard let program = arguments.first else {
            fail("usage: app-sandbox [--read DIR]... [--write DIR]... [--connect PORT]... [--user UID] [--require] -- PROGRAM [ARGUMENT]...")
        }

        // Opened while its folder is still reachable: a user of the app's own may not pass the
        // lab's folders above it, only execute the file itself.
        var opened: Int32 = -1
        if user >= 0 {
            guard geteuid() == 0 else { fail("--user needs the sandbox to start as root") }
            opened = kclab_open_program(program)
            guard opened >= 0 else { fail("cannot open \(program): \(String(cString: strerror(errno)))") }
        }
        // Landlock first, while every folder named is still reachable (as root, the lab's
        // folders are; as the app's own user they would not be).
        let abi = kclab_landlock_abi()
        if abi < 1 {
            if require { fail("this kernel has no Landlock: the app cannot be confined") }
            warn("this kernel has no Landlock: the app runs unconfined")
        } else {
            confine(abi: abi, readable: systemFolders + readable, writable: writable, ports: ports)
        }
        // Then root's powers. A container may not allow giving them up (no CAP_SETPCAP): then, as
        // without Landlock, a warning, or a refusal with --require. Becoming the app's own user is
        // never optional: the launch was prepared for that user.
        if geteuid() == 0, kclab_drop_capabilities(user) != 0 {
            let reason = "cannot give up root's capabilities: \(String(cString: strerror(errno)))"
            if require || (user >= 0 && getuid() != UInt32(user)) { fail(reason) }
            warn(reason + "; the app keeps them")
        }
        run(program, arguments, opened: opened)
    }

    static func confine(abi: Int, readable: [String], writable: [String], ports: [UInt16]) {
        var all: UInt64 = (1 << 13) - 1
        if abi >= 2 { all |= 1 << 13 }
        if abi >= 3 { all |= 1 << 14 }
        let ruleset = kclab_landlock_create_ruleset(all, abi)
        guard ruleset >= 0 else { fail("cannot create a Landlock ruleset: \(String(cString: strerror(errno)))") }
        for path in readable { allow(ruleset, path, execute | readFile | readDir) }
        for path in writable { allow(ruleset, path, all) }
        for path in devices { allow(ruleset, path, readFile | writeFile) }
        if abi >= 4 {
            for port in ports where kclab_landlock_allow_connect(ruleset, port) != 0 {
                fail("cannot allow connections to port \(port): \(String(cString: strerror(errno)))")
            }
        }
        guard kclab_landlock_restrict(ruleset) == 0 else { fail("cannot confine the app: \(String(cString: strerror(errno)))") }
        close(ruleset)
    }

    /// Allows `rights` beneath `path`; a path that does not exist is passed over. A file (not a
    /// folder) takes only the rights a file has.
    static func allow(_ ruleset: Int32, _ path: String, _ rights: UInt64) {
        let descriptor = kclab_open_path(path)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let isFolder = (status.st_mode & S_IFMT) == S_IFDIR
        let allowed = isFolder ? rights : rights & (execute | writeFile | readFile | 1 << 14)
        guard kclab_landlock_allow(ruleset, descriptor, allowed) == 0 else {
            fail("cannot allow \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Executes `program`, through `opened` when it is a descriptor (−1: by its path).
    static func run(_ program: String, _ arguments: [String], opened: Int32) -> Never {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        if opened >= 0 {
            _ = kclab_execute_opened(opened, &argv)
        } else {
            execv(program, &argv)
        }
        fail("cannot run \(program): \(String(cString: strerror(errno)))")
    }

    static func warn(_ message: String) {
        let line = Array("app-sandbox: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    static func fail(_ message: String) -> Never {
        warn(message)
        exit(126)
    }
}
