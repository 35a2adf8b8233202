public import AppIdentifiers
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
        /// iCloud Keychain's link and state on the device (control socket).
        case sync
    }

    /// What to do, with what it needs: one case per operation, so that a request cannot lack
    /// what its operation reads (checked once, where the wire form is read).
    public enum Action: Hashable, Sendable {
        /// `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` (with `attributesToUpdate`) or `SecItemDelete`.
        case secItem(SecItemCall, query: [String: SecValue], attributesToUpdate: [String: SecValue]? = nil)
        /// The calling app's identity and access groups.
        case info
        /// The device's state and installed apps (control socket).
        case status
        /// Launch the app with `arguments`, `input` on its standard input (secrets travel there,
        /// never in arguments, so never in `ps`), and wait for it (control socket).
        case run(arguments: [String], input: String? = nil)
        /// Run `program` as an app signed with get-task-allow, in the caller's `workingDirectory`
        /// when given, which it may write, and able to read the `readable` folders too (a
        /// package's path dependencies) (control socket).
        case exec(program: String, arguments: [String], input: String? = nil, workingDirectory: String? = nil, readable: [String] = [])
        /// Install the app's later version over it (control socket).
        case installUpdate
        /// Lock, unlock, restart the device, set or remove its passcode (control socket).
        case lock, unlock, reboot, setPasscode, removePasscode
        /// Lock a Mac's login keychain.
        case lockKeychain
        /// Unlock a Mac's login keychain with `password`, or the user's own.
        case unlockKeychain(password: String? = nil)
        /// `SecAddSharedWebCredential(fqdn, account, password)`; a nil password deletes.
        case addSharedWebCredential(fqdn: String?, account: String?, password: String?)
        /// `SecRequestSharedWebCredential(fqdn, account)`.
        case requestSharedWebCredential(fqdn: String?, account: String?)
        /// Replace the scripted user's answers: `answers` in order, then `defaultAnswer` (control socket).
        case setAnswers([String]?, defaultAnswer: String? = nil)
        /// Delete an app from the device, or install a world app, verified as at boot (control socket).
        case uninstall, install
        /// An `ASAuthorizationPlatformPublicKeyCredentialProvider` registration request, performed.
        case passkeyRegister(PasskeyRegistration)
        /// An `ASAuthorizationPlatformPublicKeyCredentialProvider` assertion request, performed.
        case passkeyAssert(PasskeyAssertion)
        /// The relying party's passkeys on the device, without keys (`kclab app passkey list`).
        case passkeyList(relyingParty: String)
        /// Take iCloud Keychain's link down or up, retry now, or say its state (control socket).
        case sync(SyncControl)

        /// The operation's name on the wire.
        public var operation: Operation {
            switch self {
            case .secItem(let call, _, _): Operation(call)
            case .info: .info
            case .status: .status
            case .run: .run
            case .exec: .exec
            case .installUpdate: .installUpdate
            case .lock: .lock
            case .unlock: .unlock
            case .reboot: .reboot
            case .setPasscode: .setPasscode
            case .removePasscode: .removePasscode
            case .lockKeychain: .lockKeychain
            case .unlockKeychain: .unlockKeychain
            case .addSharedWebCredential: .addSharedWebCredential
            case .requestSharedWebCredential: .requestSharedWebCredential
            case .setAnswers: .setAnswers
            case .uninstall: .uninstall
            case .install: .install
            case .passkeyRegister: .passkeyRegister
            case .passkeyAssert: .passkeyAssert
            case .passkeyList: .passkeyList
            case .sync: .sync
            }
        }
    }

    /// A passkey registration: the relying party, the user's name and handle and the challenge
    /// (base64url), and for a web browser the page's origin.
    public struct PasskeyRegistration: Hashable, Sendable {
        public var relyingParty: String
        public var userName: String
        public var userID: String
        public var challenge: String
        public var origin: String?

        public init(relyingParty: String, userName: String, userID: String, challenge: String, origin: String? = nil) {
            self.relyingParty = relyingParty
            self.userName = userName
            self.userID = userID
            self.challenge = challenge
            self.origin = origin
        }
    }

    /// A passkey assertion: the relying party, the challenge and the allowed credential IDs
    /// (base64url), and for a web browser the page's origin.
    public struct PasskeyAssertion: Hashable, Sendable {
        public var relyingParty: String
        public var challenge: String
        public var credentialIDs: [String]?
        public var origin: String?

        public init(relyingParty: String, challenge: String, credentialIDs: [String]? = nil, origin: String? = nil) {
            self.relyingParty = relyingParty
            self.challenge = challenge
            self.credentialIDs = credentialIDs
            self.origin = origin
        }
    }

    /// The bundle ID to act as (control socket only; an app's own socket acts as that app).
    public var app: String?
    /// What to do.
    public var action: Action
    /// For `run` and `exec`: send the program's output as it prints it, in answers marked
    /// ``DeviceResponse/partial`` before the last (control socket).
    public var streamsOutput: Bool

    public init(_ action: Action, app: String? = nil, streamsOutput: Bool = false) {
        self.action = action
        self.app = app
        self.streamsOutput = streamsOutput
    }

    /// The operation's name on the wire.
    public var operation: Operation { action.operation }
}

/// ``DeviceRequest``'s wire form: one JSON object per line, `op` naming the operation and the
/// fields it reads beside it.
extension DeviceRequest {
    private struct Wire: Codable {
        var op: Operation
        var app: String?
        var query: [String: SecValue]?
        var attributesToUpdate: [String: SecValue]?
        /// Arguments for `run`; the program and its arguments for `exec`; answers for `set-answers`.
        var arguments: [String]?
        var fqdn: String?
        var account: String?
        var password: String?
        var defaultAnswer: String?
        var challenge: String?
        var userID: String?
        var credentialIDs: [String]?
        var origin: String?
        var input: String?
        var workingDirectory: String?
        var readable: [String]?
        var stream: Bool?
        var sync: SyncControl?
    }

    public func encode(to encoder: any Encoder) throws {
        var wire = Wire(op: operation, app: app)
        wire.stream = streamsOutput ? true : nil
        switch action {
        case .secItem(_, let query, let changes): (wire.query, wire.attributesToUpdate) = (query, changes)
        case .run(let arguments, let input): (wire.arguments, wire.input) = (arguments, input)
        case .exec(let program, let arguments, let input, let folder, let readable):
            (wire.arguments, wire.input, wire.workingDirectory) = ([program] + arguments, input, folder)
            wire.readable = readable.isEmpty ? nil : readable
        case .unlockKeychain(let password): wire.password = password
        case .addSharedWebCredential(let fqdn, let account, let password): (wire.fqdn, wire.account, wire.password) = (fqdn, account, password)
        case .requestSharedWebCredential(let fqdn, let account): (wire.fqdn, wire.account) = (fqdn, account)
        case .setAnswers(let answers, let defaultAnswer): (wire.arguments, wire.defaultAnswer) = (answers, defaultAnswer)
        case .passkeyRegister(let request):
            (wire.fqdn, wire.account, wire.userID, wire.challenge, wire.origin) =
                (request.relyingParty, request.userName, request.userID, request.challenge, request.origin)
        case .passkeyAssert(let request):
            (wire.fqdn, wire.challenge, wire.credentialIDs, wire.origin) = (
                request.relyingParty, request.challenge, request.credentialIDs, request.origin
            )
        case .passkeyList(let relyingParty): wire.fqdn = relyingParty
        case .sync(let control): wire.sync = control
        case .info, .status, .installUpdate, .lock, .unlock, .reboot, .setPasscode, .removePasscode, .lockKeychain, .uninstall, .install: break
        }
        try wire.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let wire = try Wire(from: decoder)
        func required<Value>(_ value: Value?, _ what: String) throws -> Value {
            guard let value else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(wire.op.rawValue) needs \(what)"))
            }
            return value
        }
        app = wire.app
        streamsOutput = wire.stream ?? false
        switch wire.op {
        case .add, .copyMatching, .update, .delete:
            action = .secItem(wire.op.secItemCall!, query: wire.query ?? [:], attributesToUpdate: wire.attributesToUpdate)
        case .info: action = .info
        case .status: action = .status
        case .run: action = .run(arguments: wire.arguments ?? [], input: wire.input)
        case .exec:
            let program = try required(wire.arguments?.first, "a program (the first of 'arguments')")
            let arguments = Array((wire.arguments ?? []).dropFirst())
            action = .exec(
                program: program,
                arguments: arguments,
                input: wire.input,
                workingDirectory: wire.workingDirectory,
                readable: wire.readable ?? []
            )
        case .installUpdate: action = .installUpdate
        case .lock: action = .lock
        case .unlock: action = .unlock
        case .reboot: action = .reboot
        case .setPasscode: action = .setPasscode
        case .removePasscode: action = .removePasscode
        case .lockKeychain: action = .lockKeychain
        case .unlockKeychain: action = .unlockKeychain(password: wire.password)
        case .addSharedWebCredential: action = .addSharedWebCredential(fqdn: wire.fqdn, account: wire.account, password: wire.password)
        case .requestSharedWebCredential: action = .requestSharedWebCredential(fqdn: wire.fqdn, account: wire.account)
        case .setAnswers: action = .setAnswers(wire.arguments, defaultAnswer: wire.defaultAnswer)
        case .uninstall: action = .uninstall
        case .install: action = .install
        case .passkeyRegister:
            action = .passkeyRegister(
                PasskeyRegistration(
                    relyingParty: try required(wire.fqdn, "the relying party ('fqdn')"),
                    userName: try required(wire.account, "the user's name ('account')"),
                    userID: try required(wire.userID, "the user's handle ('userID')"),
                    challenge: try required(wire.challenge, "a challenge"),
                    origin: wire.origin
                )
            )
        case .passkeyAssert:
            action = .passkeyAssert(
                PasskeyAssertion(
                    relyingParty: try required(wire.fqdn, "the relying party ('fqdn')"),
                    challenge: try required(wire.challenge, "a challenge"),
                    credentialIDs: wire.credentialIDs,
                    origin: wire.origin
                )
            )
        case .passkeyList: action = .passkeyList(relyingParty: try required(wire.fqdn, "the relying party ('fqdn')"))
        case .sync: action = .sync(try required(wire.sync, "what to do ('sync': online, offline, retry or status)"))
        }
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
    /// A part of a program's output sent as it runs (a request that ``DeviceRequest/streamsOutput``):
    /// more answers follow, the last without this mark.
    public var partial: Bool?
    /// For shared web credentials: the CFError the completion handler gets (`nil` is NULL).
    public var callError: CallError?
    /// For `set-answers`: the scripted user's answers now.
    public var answers: [String]?
    /// For a passkey request: what the platform authenticator answered.
    public var passkey: PasskeyCredential?
    /// iCloud Keychain's state on the device (`sync`).
    public var sync: SyncStatus?

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
    /// The application identifier; nil for a Mac app signed without a profile, which claims none.
    public var appID: AppID?
    /// The team that signed it; nil when its signature names none.
    public var teamID: TeamID?
    /// In securityd's order; the first is the default for SecItemAdd.
    public var accessGroups: [AccessGroup]
    public var getTaskAllow: Bool

    /// The application identifier as kclab prints it; empty when there is none.
    public var appIDText: String { appID?.rawValue ?? "" }

    public init(bundleID: String, appID: AppID?, teamID: TeamID?, accessGroups: [AccessGroup], getTaskAllow: Bool) {
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

/// What `sync` asks of the device's iCloud Keychain.
public enum SyncControl: String, Codable, Hashable, Sendable {
    /// Take the link to cloudd down, or bring it back (`kclab device offline|online`).
    case offline, online
    /// Skip the wait before a failed upload or fetch is tried again (30 minutes on a device).
    case retry
    /// Settings › iCloud › Passwords and Keychain turned off, keeping this device's copies, or
    /// deleting Apple's password, credit-card and passkey items from it; and on again.
    case offKeep = "off-keep"
    case offDelete = "off-delete"
    case on
    /// Say each view's state (`kclab sync status`).
    case status
    /// `kclab reset`: stop taking changes and hearing the cloud, once the step in progress (an
    /// upload, a fetch) has ended; and start again, each view told what changed meanwhile.
    case pause, resume
    /// `kclab reset`, once keychaind's items and the account's zones are gone: forget every view's
    /// token, mirror and queues and where the device is in keychaind's feed, and start afresh, as a
    /// device first signed in (online, iCloud Keychain on); what was forgotten is in the answer.
    case reset
}

/// A device's iCloud Keychain, as `kclab sync status` shows it.
public struct SyncStatus: Codable, Hashable, Sendable {
    /// The iCloud account.
    public var account: String
    /// Whether iCloud Keychain is on (Settings › iCloud › Passwords and Keychain).
    public var keychainSync: Bool
    /// Whether keychaind holds changes of synchronizable items the device has not taken yet.
    public var untakenChanges: Bool
    public var views: [SyncViewStatus]
    /// The items the engines hold something about: queued, held while locked, or noted.
    public var items: [SyncItemState]?
    /// For `reset`: what the engines forgot.
    public var forgotten: SyncForgotten?
    /// Whether `kclab reset` has the engines paused (nil: not paused).
    public var paused: Bool?

    public init(
        account: String,
        keychainSync: Bool = true,
        untakenChanges: Bool,
        views: [SyncViewStatus],
        items: [SyncItemState]? = nil,
        forgotten: SyncForgotten? = nil,
        paused: Bool? = nil
    ) {
        self.account = account
        self.keychainSync = keychainSync
        self.untakenChanges = untakenChanges
        self.views = views
        self.items = items
        self.forgotten = forgotten
        self.paused = paused
    }
}

/// What a device's sync engine holds about one item (its metadata, never its secret).
public struct SyncItemState: Codable, Hashable, Sendable {
    public var uuid: String
    public var view: String
    public var itemClass: String
    public var group: String
    public var account: String?
    public var service: String?
    public var server: String?
    /// In words: waiting to upload, held while locked, what the engine noted.
    public var states: [String]

    public init(
        uuid: String,
        view: String,
        itemClass: String,
        group: String,
        account: String?,
        service: String?,
        server: String?,
        states: [String]
    ) {
        self.uuid = uuid
        self.view = view
        self.itemClass = itemClass
        self.group = group
        self.account = account
        self.service = service
        self.server = server
        self.states = states
    }

    /// Whether the item has every attribute `query` names among class, group, account,
    /// service and server (`kclab explain item`'s query).
    public func matches(_ query: [String: SecValue]) -> Bool {
        let named: [(String, String?)] = [("class", itemClass), ("agrp", group), ("acct", account), ("svce", service), ("srvr", server)]
        return named.allSatisfy { key, value in
            guard let wanted = query[key]?.string else { return true }
            return wanted == value
        }
    }
}

/// One view of a device's iCloud Keychain.
public struct SyncViewStatus: Codable, Hashable, Sendable {
    /// The view (zone): Applications, CreditCards, Passwords or Backstop.
    public var view: String
    public var online: Bool
    /// The zone's change token the device has fetched up to.
    public var token: String?
    /// Local changes not uploaded yet.
    public var outgoing: Int
    /// Whether an upload waits for cloudd's answer.
    public var uploading: Bool
    /// The cloud's class-A changes held until the device unlocks.
    public var heldWhileLocked: Int
    /// Whether a failed upload or fetch waits to be tried again.
    public var retryPending: Bool
    public var lastError: String?

    public init(
        view: String,
        online: Bool,
        token: String?,
        outgoing: Int,
        uploading: Bool,
        heldWhileLocked: Int,
        retryPending: Bool,
        lastError: String?
    ) {
        self.view = view
        self.online = online
        self.token = token
        self.outgoing = outgoing
        self.uploading = uploading
        self.heldWhileLocked = heldWhileLocked
        self.retryPending = retryPending
        self.lastError = lastError
    }

    /// Whether the view has nothing left to do: online, nothing queued, in flight or held.
    public var isSettled: Bool {
        online && outgoing == 0 && !uploading && heldWhileLocked == 0 && !retryPending
    }
}

extension SyncStatus {
    /// What keeps the device from having converged with its account's zones, whose latest change
    /// tokens are `zoneTokens` (by view): changes not taken or not uploaded, a fetch behind the
    /// zone, an item held while locked, a retry pending. Empty once converged; an offline
    /// device is not waited for.
    public func unsettled(zoneTokens: [String: String]) -> [String] {
        guard keychainSync, views.contains(where: \.online) else { return [] }
        var reasons: [String] = []
        if paused == true { reasons.append("paused by kclab reset") }
        if untakenChanges { reasons.append("changes in keychaind not taken yet") }
        for view in views {
            if view.outgoing > 0 { reasons.append("\(view.view): \(view.outgoing) changes to upload") }
            if view.uploading { reasons.append("\(view.view): an upload in flight") }
            if view.heldWhileLocked > 0 { reasons.append("\(view.view): \(view.heldWhileLocked) held while locked") }
            if view.retryPending { reasons.append("\(view.view): waiting to retry after \(view.lastError ?? "an error")") }
            if let latest = zoneTokens[view.view], view.token != latest {
                reasons.append("\(view.view): fetched up to \(view.token ?? "nothing"), the zone is at \(latest)")
            }
        }
        return reasons
    }
}
