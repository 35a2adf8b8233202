import DeviceProtocol
public import Foundation

/// The folder `kclab up` runs a world in, and where each part of it lives.
///
/// ```
/// STATE/
///   lab.json                 the world file, and the processes started (pids)
///   world/                   the built world
///   keychaind/               keychaind's database, keys and endpoint.json
///   devices/ID/              each device: installed apps, control.sock, ready.json
///   websites/                nginx's configuration, logs and site.json (its address and hosts)
///   cdn/                     the Apple-like CDN's endpoint.json
///   associationd/            associations.sqlite and endpoint.json
///   webcredentiald/          approvals.sqlite and endpoint.json
///   cloudd/                  zones.sqlite (iCloud Keychain's zones) and endpoint.json
///   website/                 the login website's website.sqlite and endpoint.json
///   console/                 the console's endpoint.json
///   console.url              the console's URL with its token (owner-only; docs/console.md)
///   logs/NAME.log            each process's output
/// ```
public struct LabState: Sendable {
    /// The state folder.
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public var labFile: URL { root.appending(path: "lab.json") }
    public var builtWorld: URL { root.appending(path: "world") }
    public var keychaind: URL { root.appending(path: "keychaind") }
    public var keychaindEndpoint: URL { keychaind.appending(path: "endpoint.json") }
    public var logs: URL { root.appending(path: "logs") }
    public var websites: URL { root.appending(path: "websites") }
    public var siteFile: URL { websites.appending(path: "site.json") }
    public var cdn: URL { root.appending(path: "cdn") }
    public var associationd: URL { root.appending(path: "associationd") }
    public var associationdEndpoint: URL { associationd.appending(path: "endpoint.json") }
    public var cdnEndpoint: URL { cdn.appending(path: "endpoint.json") }
    public var website: URL { root.appending(path: "website") }
    public var websiteEndpoint: URL { website.appending(path: "endpoint.json") }
    public var webcredentiald: URL { root.appending(path: "webcredentiald") }
    public var webcredentialdEndpoint: URL { webcredentiald.appending(path: "endpoint.json") }
    public var cloudd: URL { root.appending(path: "cloudd") }
    public var clouddEndpoint: URL { cloudd.appending(path: "endpoint.json") }
    public var console: URL { root.appending(path: "console") }
    public var consoleEndpoint: URL { console.appending(path: "endpoint.json") }
    /// The console's URL with its token, written by the console once it listens.
    public var consoleURLFile: URL { root.appending(path: "console.url") }
    /// The URL in ``consoleURLFile``; nil when no console wrote one.
    public var consoleURL: String? {
        let url = ((try? String(contentsOf: consoleURLFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return url.isEmpty ? nil : url
    }
    /// The endpoint file of cloudd replica `number` (1 is the lab's cloudd, then `cloudd-2`, …),
    /// when `kclab up --cloudd-replicas` started several.
    public func clouddReplicaEndpoint(_ number: Int) -> URL {
        number <= 1 ? clouddEndpoint : root.appending(path: "cloudd-\(number)/endpoint.json")
    }
    /// The prompt log of device `id`.
    public func promptLog(_ id: String) -> URL { device(id).appending(path: PromptLog.fileName) }

    /// Every device's folder.
    public var devices: URL { root.appending(path: "devices") }
    public func device(_ id: String) -> URL { devices.appending(path: id) }
    public func controlSocket(_ id: String) -> URL { device(id).appending(path: "control.sock") }
    public func readyFile(_ id: String) -> URL { device(id).appending(path: "ready.json") }
    public func log(_ name: String) -> URL { logs.appending(path: "\(name).log") }

    /// The world file a command names, else the one `kclab up` recorded here (the compose lab
    /// records none); nil when there is neither.
    public func worldFile(given: String?) -> URL? {
        (given ?? LabRecord.read(self)?.worldFile).map { URL(fileURLWithPath: $0) }
    }
}

/// What `kclab up` started, so that `down` and `status` find it.
public struct LabRecord: Codable, Sendable {
    public struct Process: Codable, Sendable {
        public var name: String
        public var pid: Int32
        /// The program and its arguments, so `kclab restart` can start it again (nil in records
        /// written before restart existed).
        public var program: String?
        public var arguments: [String]?
        /// A folder the process keeps its files in and that goes with it: `kclab down` removes it
        /// once the process has stopped (the lab's PostgreSQL cluster).
        public var folder: String?

        public init(name: String, pid: Int32, program: String? = nil, arguments: [String]? = nil, folder: String? = nil) {
            self.name = name
            self.pid = pid
            self.program = program
            self.arguments = arguments
            self.folder = folder
        }
    }

    /// The world file, absolute.
    public var worldFile: String
    /// keychaind first, then the devices.
    public var processes: [Process]

    public init(worldFile: String, processes: [Process]) {
        self.worldFile = worldFile
        self.processes = processes
    }

    public static func read(_ state: LabState) -> LabRecord? {
        guard let data = try? Data(contentsOf: state.labFile) else { return nil }
        return try? JSONDecoder().decode(LabRecord.self, from: data)
    }

    public func write(_ state: LabState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: state.labFile, options: .atomic)
    }
}
