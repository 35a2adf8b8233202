public import Foundation
public import KeychainTypes

/// A rule that decided something in the lab: an engine's refusal rule (`access-group`), a site
/// check's rule, … Its raw value is its name on every wire.
public protocol DecisionRule: RawRepresentable, Hashable, Sendable, Codable where RawValue == String {}

/// Any daemon's rule by its name, for a reader that gathers several daemons' decisions (the
/// console) or one whose rules it does not link.
public struct RuleName: DecisionRule, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// One decision of the lab, the one record every daemon writes and every reader reads: who asked
/// (device, app, call), what was decided (a status, typed), by which rule, why, and what to
/// change. Never a value. Its Codable form is the wire form of keychaind's audit route, its audit
/// file's line and the console's feed.
public struct Decision<Rule: DecisionRule>: Codable, Hashable, Sendable {
    public var time: Date
    /// Its place in the daemon's record: its first decision since it started is 1, each next one
    /// 1 more, whatever the device (nil before the daemon numbered it).
    public var sequence: Int64?
    /// The device's UDID.
    public var device: String
    /// The app's bundle ID, or the reference the device gave when the daemon does not know it.
    public var app: String
    /// The app's application identifier (`TEAM.bundle`) when the daemon knows the app.
    public var appID: String?
    /// What was asked: `SecItemAdd`, `SecItemCopyMatching`, …, `register`.
    public var call: String
    /// The OSStatus a device would return; nil for a decision that has none (refused before the
    /// keychain, an app's registration).
    public var status: SecStatus?
    /// The status's name (`errSecItemNotFound`), or the refusal's code (`unknownApp`).
    public var name: String
    /// The rule that decided a refusal; nil for a success.
    public var rule: Rule?
    /// What the rule found, naming the key, group or value involved.
    public var reason: String?
    /// What to change, in the terms of an app's project.
    public var fix: String?

    public init(
        time: Date,
        sequence: Int64? = nil,
        device: String,
        app: String,
        appID: String? = nil,
        call: String,
        status: SecStatus?,
        name: String,
        rule: Rule? = nil,
        reason: String? = nil,
        fix: String? = nil
    ) {
        self.time = time
        self.sequence = sequence
        self.device = device
        self.app = app
        self.appID = appID
        self.call = call
        self.status = status
        self.name = name
        self.rule = rule
        self.reason = reason
        self.fix = fix
    }

    /// Whether the call ended in errSecSuccess.
    public var succeeded: Bool { status == .success }

    /// Whether what was asked was refused: a rule decided it, or its status is not errSecSuccess.
    /// A decision with neither (an app's registration) was not.
    public var refused: Bool { rule != nil || (status.map { $0 != .success } ?? false) }

    /// The same decision with its rule by name, as a reader of several daemons holds it.
    public var named: Decision<RuleName> {
        Decision<RuleName>(
            time: time,
            sequence: sequence,
            device: device,
            app: app,
            appID: appID,
            call: call,
            status: status,
            name: name,
            rule: rule.map { RuleName(rawValue: $0.rawValue) },
            reason: reason,
            fix: fix
        )
    }
}
