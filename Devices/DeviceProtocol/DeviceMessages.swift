public import KeychainTypes

/// What an app (through the Security module) or kclab asks its device, one JSON object per line on
/// a Unix socket.
///
/// On an app's own socket the device knows which app is calling; `app` is ignored there. On the
/// device's control socket `app` names the bundle ID a call is made as.
public struct DeviceRequest: Codable, Hashable, Sendable {
    /// What to do.
    public enum Operation: String, Codable, Hashable, Sendable, CaseIterable {
        /// `SecItemAdd`.
        case add
        /// `SecItemCopyMatching`.
        case copyMatching = "copy-matching"
        /// `SecItemUpdate`.
        case update
        /// `SecItemDelete`.
        case delete
        /// The calling app's identity and access groups.
        case info
        /// The device's state and installed apps (control socket).
        case status
        /// Launch an app with arguments and wait for it (control socket).
        case run
        /// Run a program as an app signed with get-task-allow (control socket).
        case exec
        /// Install the app's later version over it (control socket).
        case installUpdate = "install-update"
        /// Lock the device (control socket).
        case lock
        /// Unlock the device with its passcode (control socket).
        case unlock
        /// Restart the device: locked, and not unlocked since boot (control socket).
        case reboot
    }

    public var operation: Operation
    /// The bundle ID to act as (control socket only).
    public var app: String?
    /// The query or attributes dictionary.
    public var query: [String: SecValue]?
    /// `attributesToUpdate`, for `update`.
    public var attributesToUpdate: [String: SecValue]?
    /// Arguments for `run`; the program and its arguments for `exec`.
    public var arguments: [String]?

    public init(
        _ operation: Operation,
        app: String? = nil,
        query: [String: SecValue]? = nil,
        attributesToUpdate: [String: SecValue]? = nil,
        arguments: [String]? = nil
    ) {
        self.operation = operation
        self.app = app
        self.query = query
        self.attributesToUpdate = attributesToUpdate
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey {
        case operation = "op"
        case app, query, attributesToUpdate, arguments
    }
}

/// The device's answer.
public struct DeviceResponse: Codable, Hashable, Sendable {
    /// The OSStatus of a SecItem call.
    public var status: Int32?
    /// Its name, such as `errSecItemNotFound`.
    public var name: String?
    /// The call's result.
    public var result: SecValue?
    /// The rule that decided a non-zero status.
    public var reason: String?
    /// A failure to make the request at all (unknown app, bad request).
    public var error: String?
    /// For `info`: the app.
    public var app: AppInfo?
    /// For `status`: the device.
    public var device: DeviceStatus?
    /// For `run` and `exec`: the program's exit status and output.
    public var exitCode: Int32?
    public var output: String?

    public init() {}

    /// A SecItem call's outcome.
    public static func call(status: Int32, name: String, result: SecValue?, reason: String?) -> DeviceResponse {
        var response = DeviceResponse()
        response.status = status
        response.name = name
        response.result = result
        response.reason = reason
        return response
    }

    /// A request that could not be made.
    public static func failure(_ message: String) -> DeviceResponse {
        var response = DeviceResponse()
        response.error = message
        return response
    }
}

/// An installed app as its device knows it.
public struct AppInfo: Codable, Hashable, Sendable {
    public var bundleID: String
    public var appID: String
    public var teamID: String
    /// In securityd's order; the first is the default for SecItemAdd.
    public var accessGroups: [String]
    public var getTaskAllow: Bool

    public init(bundleID: String, appID: String, teamID: String, accessGroups: [String], getTaskAllow: Bool) {
        self.bundleID = bundleID
        self.appID = appID
        self.teamID = teamID
        self.accessGroups = accessGroups
        self.getTaskAllow = getTaskAllow
    }
}

/// A device as `kclab status` shows it.
public struct DeviceStatus: Codable, Hashable, Sendable {
    public var id: String
    public var udid: String
    public var platform: String
    public var osVersion: String
    public var iCloudAccount: String?
    public var isLocked: Bool
    public var keychaind: String
    public var installed: [AppInfo]
    /// Bundle IDs refused at install, with the reasons.
    public var refused: [String: [String]]

    public init(
        id: String,
        udid: String,
        platform: String,
        osVersion: String,
        iCloudAccount: String?,
        isLocked: Bool,
        keychaind: String,
        installed: [AppInfo],
        refused: [String: [String]]
    ) {
        self.id = id
        self.udid = udid
        self.platform = platform
        self.osVersion = osVersion
        self.iCloudAccount = iCloudAccount
        self.isLocked = isLocked
        self.keychaind = keychaind
        self.installed = installed
        self.refused = refused
    }
}

/// The environment variables a device gives the processes it launches.
public enum DeviceEnvironment {
    /// The app's own socket: the Security module connects here.
    public static let socket = "KEYCHAINLAB_SOCKET"
    /// The app's bundle ID, for messages.
    public static let bundleID = "KEYCHAINLAB_APP"
    /// The device's ID.
    public static let device = "KEYCHAINLAB_DEVICE"
}
