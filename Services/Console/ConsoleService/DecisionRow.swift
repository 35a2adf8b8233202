import Decisions
import Foundation
import KeychainTypes

/// One decision as the Decisions page shows it and `/events` sends it: the one-line verdict
/// (time, device, app, call, status), the deciding rule with what it found and what to change,
/// and the whole record. Plain strings, none optional (an empty one is shown as nothing): the
/// template escapes each, and the page's script sets each as text, never as markup.
public struct DecisionRow: Codable, Hashable, Sendable {
    /// The console's event id.
    public var id: Int64
    /// When, ISO 8601 in UTC to the millisecond.
    public var time: String
    /// The device's name in the world, or its UDID when the world does not name it.
    public var device: String
    /// The device's UDID.
    public var udid: String
    /// The app's bundle ID (or the reference the daemon was given).
    public var app: String
    /// Its application identifier, when the daemon knew the app.
    public var appID: String
    /// What was asked: `SecItemAdd`, …
    public var call: String
    /// The status's name, or the refusal's code.
    public var name: String
    /// The OSStatus, as a number (`-25300`); empty for a decision without one.
    public var code: String
    /// `ok` for errSecSuccess (or a decision without a status that no rule refused), else `refused`.
    public var outcome: String
    /// The rule that decided a refusal.
    public var rule: String
    /// What the rule found.
    public var reason: String
    /// What to change.
    public var fix: String
    /// The daemon's record of it, as JSON with sorted keys.
    public var record: String
}

/// Turns the feed's events into rows: device names from the world, times in one form.
public struct DecisionRows: Sendable {
    /// The world's devices by UDID: their names.
    public let names: [String: String]

    /// Rows naming the devices of `devices` (UDID → name).
    public init(names: [String: String]) {
        self.names = names
    }

    /// The UDID of a device named `name` in the world, or `name` itself (already a UDID).
    public func udid(_ name: String) -> String {
        names.first { $0.value == name }?.key ?? name
    }

    /// The row of `event`.
    public func row(_ event: DecisionFeed.Event) -> DecisionRow {
        let decision = event.decision
        return DecisionRow(
            id: event.id,
            time: decision.time.formatted(Self.timeStyle),
            device: names[decision.device] ?? decision.device,
            udid: decision.device,
            app: decision.app,
            appID: decision.appID ?? "",
            call: decision.call,
            name: decision.name,
            code: decision.status.map { String($0.code) } ?? "",
            outcome: decision.refused ? "refused" : "ok",
            rule: decision.rule?.rawValue ?? "",
            reason: decision.reason ?? "",
            fix: decision.fix ?? "",
            record: (try? Self.recordEncoder.encode(decision)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        )
    }

    /// The row of `event` as one line of JSON, the `data:` of its server-sent event.
    public func json(_ event: DecisionFeed.Event) -> String {
        (try? Self.lineEncoder.encode(row(event))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static var recordEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    private static var lineEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
