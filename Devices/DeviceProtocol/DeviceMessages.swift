public import Foundation
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
        /// Set a passcode on the device (control socket).
        case setPasscode = "set-passcode"
        /// Remove the device's passcode: its when-passcode-set items are deleted (control socket).
        case removePasscode = "remove-passcode"
        /// Lock a Mac's login keychain (control socket).
        case lockKeychain = "lock-keychain"
        /// Unlock a Mac's login keychain with `password`, or the user's own (control socket).
        case unlockKeychain = "unlock-keychain"
        /// `SecAddSharedWebCredential(fqdn, account, password)`.
        case addSharedWebCredential = "add-shared-web-credential"
        /// `SecRequestSharedWebCredential(fqdn, account)`.
        case requestSharedWebCredential = "request-shared-web-credential"
        /// Replace the scripted user's answers: `arguments` in order, then `defaultAnswer` (control socket).
        case setAnswers = "set-answers"
        /// Delete an app from the device, as the home screen does (control socket).
        case uninstall
        /// Install a world app on the device, verified as at boot (control socket).
        case install
        /// An `ASAuthorizationPlatformPublicKeyCredentialProvider` registration request, performed.
        case passkeyRegister = "passkey-register"
        /// An `ASAuthorizationPlatformPublicKeyCredentialProvider` assertion request, performed.
        case passkeyAssert = "passkey-assert"
        /// The relying party's passkeys on the device, without keys (`kclab app passkey list`).
        case passkeyList = "passkey-list"
    }

    public var operation: Operation
    /// The bundle ID to act as (control socket only).
    public var app: String?
    /// The query or attributes dictionary.
    public var query: [String: SecValue]?
    /// `attributesToUpdate`, for `update`.
    public var attributesToUpdate: [String: SecValue]?
    /// Arguments for `run`; the program and its arguments for `exec`; answers for `set-answers`.
    public var arguments: [String]?
    /// Shared web credentials: the domain, the account, and the password (`nil` deletes).
    public var fqdn: String?
    public var account: String?
    public var password: String?
    /// For `set-answers`: the answer once the list is used up.
    public var defaultAnswer: String?
    /// For passkeys (`fqdn` is the relying party, `account` the user name): the challenge, the
    /// user handle (registration) and the allowed credential IDs (assertion), in base64url.
    public var challenge: String?
    public var userID: String?
    public var credentialIDs: [String]?
    /// For a web browser's passkey request: the page's origin.
    public var origin: String?
    /// For `run` and `exec`: what the app reads on its standard input, so that secrets it is
    /// given (`--password -`) never show in its arguments, and so in `ps`.
    public var input: String?
    /// For `exec`: the caller's working directory, where the program runs and may write (a
    /// package's `swift test` finds its Package.swift there and builds into it).
    public var workingDirectory: String?

    public init(
        _ operation: Operation,
        app: String? = nil,
        query: [String: SecValue]? = nil,
        attributesToUpdate: [String: SecValue]? = nil,
        arguments: [String]? = nil,
        input: String? = nil
    ) {
        self.operation = operation
        self.app = app
        self.query = query
        self.attributesToUpdate = attributesToUpdate
        self.arguments = arguments
        self.input = input
    }

    private enum CodingKeys: String, CodingKey {
        case operation = "op"
        case app, query, attributesToUpdate, arguments, fqdn, account, password, defaultAnswer, challenge, userID, credentialIDs, origin, input
        case workingDirectory
    }

    /// A shared-web-credential call.
    public static func sharedWebCredential(
        _ operation: Operation,
        fqdn: String?,
        account: String?,
        password: String? = nil,
        app: String? = nil
    )
        -> DeviceRequest
    {
        var request = DeviceRequest(operation, app: app)
        request.fqdn = fqdn
        request.account = account
        request.password = password
        return request
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
    /// For shared web credentials: the CFError the completion handler gets (`nil` is NULL).
    public var callError: CallError?
    /// For `set-answers`: the scripted user's answers now.
    public var answers: [String]?
    /// For a passkey request: what the platform authenticator answered.
    public var passkey: PasskeyCredential?

    public init() {}

    /// A SecItem call's outcome.
    /// An answer of `status`, its number and name from the one status table.
    public static func call(_ status: SecStatus, result: SecValue? = nil, reason: String?) -> DeviceResponse {
        call(status: status.code, name: status.name, result: result, reason: reason)
    }

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

/// A prompt the device showed its user, as `kclab device prompts` lists it (one JSON object per
/// line of the device's `prompts.jsonl`).
public struct PromptRecord: Codable, Hashable, Sendable {
    public var time: Date
    public var device: String
    /// The calling app's bundle ID and display name.
    public var app: String
    public var appName: String
    /// add, update, delete, picker or password-request.
    public var kind: String
    public var domain: String
    public var title: String
    public var messageKey: String
    public var buttons: [String]
    public var choices: [String]?
    /// What the user answered, as written in the world file.
    public var answer: String
    /// How long the user looked at it first.
    public var waitedMilliseconds: Int

    public init(
        time: Date,
        device: String,
        app: String,
        appName: String,
        kind: String,
        domain: String,
        title: String,
        messageKey: String,
        buttons: [String],
        choices: [String]?,
        answer: String,
        waitedMilliseconds: Int
    ) {
        self.time = time
        self.device = device
        self.app = app
        self.appName = appName
        self.kind = kind
        self.domain = domain
        self.title = title
        self.messageKey = messageKey
        self.buttons = buttons
        self.choices = choices
        self.answer = answer
        self.waitedMilliseconds = waitedMilliseconds
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
    /// A Mac's login keychain: locked or not, as keychaind last said (`nil` on iOS).
    public var loginKeychainLocked: Bool?
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
        loginKeychainLocked: Bool? = nil,
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
        self.loginKeychainLocked = loginKeychainLocked
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
    /// The device's DNS for the lab's websites: `host=ADDR:PORT,…`.
    public static let resolve = "KEYCHAINLAB_RESOLVE"
    /// The roots the device trusts for websites (a PEM file).
    public static let webTrust = "KEYCHAINLAB_WEB_TRUST"
}

/// Where the lab's websites answer (`STATE/websites/site.json`, written when nginx starts): every
/// host at one loopback address and port. Devices hand it to their apps as their DNS.
public struct SiteRecord: Codable, Sendable {
    public var address: String
    public var port: Int
    public var hosts: [String]

    public init(address: String, port: Int, hosts: [String]) {
        self.address = address
        self.port = port
        self.hosts = hosts
    }

    /// `host=ADDR:PORT,…`, the form of ``DeviceEnvironment/resolve``.
    public var resolveList: String {
        hosts.map { "\($0)=\(address):\(port)" }.joined(separator: ",")
    }
}

/// Where a device keeps its prompt log: `prompts.jsonl` in its state folder.
public enum PromptLog {
    public static let fileName = "prompts.jsonl"

    /// Adds `record` as one line at the end of the log at `file` (created when missing).
    public static func append(_ record: PromptRecord, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(record)
        line.append(0x0A)
        if !FileManager.default.fileExists(atPath: file.path) { try Data().write(to: file) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }

    /// Every prompt in the log at `file`, oldest first; lines that do not parse are skipped.
    public static func read(_ file: URL) throws -> [PromptRecord] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try String(decoding: Data(contentsOf: file), as: UTF8.self).split(separator: "\n").compactMap { line in
            try? decoder.decode(PromptRecord.self, from: Data(line.utf8))
        }
    }
}

extension DeviceRequest.Operation {
    /// The operation that makes `call`.
    public init(_ call: SecItemCall) {
        self =
            switch call {
            case .add: .add
            case .copyMatching: .copyMatching
            case .update: .update
            case .delete: .delete
            }
    }

    /// The SecItem call this operation makes; nil for every other operation.
    public var secItemCall: SecItemCall? {
        switch self {
        case .add: .add
        case .copyMatching: .copyMatching
        case .update: .update
        case .delete: .delete
        default: nil
        }
    }
}
