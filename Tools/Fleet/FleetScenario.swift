import Foundation
import WorldFile
import Yams

/// A fleet's scenario file (`kclab fleet --scenario FILE`): the plan as YAML, every key optional
/// (the plan's defaults stand in), an unknown key refused by name. For example:
///
/// ```yaml
/// devices: 2000
/// devicesPerAccount: 4
/// seconds: 120
/// writesPerDeviceMinute: 3
/// offline: { fraction: 0.1, atSeconds: 30, seconds: 20 }
/// calls: { copy: 12, add: 2, update: 1, delete: 1 }
/// declineShare: 0.25
/// faults:
///   - { kind: kill-replica, atSeconds: 60 }
/// ```
extension FleetPlan {
    /// The largest scenario read: a plan, not a document.
    public static let maximumScenarioSize = 64 << 10

    /// The keys a scenario may give.
    static let scenarioKeys = Set(CodingKeys.allCases.map(\.rawValue))

    /// Reads a scenario and checks the plan it gives.
    public init(scenario text: String) throws(Invalid) {
        guard text.utf8.count <= Self.maximumScenarioSize else {
            throw Invalid(description: "the scenario is over \(Self.maximumScenarioSize >> 10) KiB")
        }
        do {
            try YAMLExpansionBudget.check(text)
        } catch {
            throw Invalid(description: "scenario \(error.description)")
        }
        let keys: [String]
        do {
            guard let mapping = try Yams.compose(yaml: text)?.mapping else {
                throw Invalid(description: "a scenario is a mapping of the plan's keys")
            }
            keys = mapping.keys.compactMap(\.string)
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(description: "the scenario is not YAML: \(error)")
        }
        if let unknown = keys.first(where: { !Self.scenarioKeys.contains($0) }) {
            let known = Self.scenarioKeys.sorted().joined(separator: ", ")
            throw Invalid(description: "the scenario's '\(unknown.prefix(40))' is not a plan key: \(known)")
        }
        do {
            self = try YAMLDecoder().decode(FleetPlan.self, from: text)
        } catch {
            throw Invalid(description: "the scenario does not read as a plan: \(error)")
        }
        try validate()
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let values = try decoder.container(keyedBy: CodingKeys.self)
        devices = try values.decodeIfPresent(Int.self, forKey: .devices) ?? devices
        devicesPerAccount = try values.decodeIfPresent(Int.self, forKey: .devicesPerAccount) ?? devicesPerAccount
        seconds = try values.decodeIfPresent(Int.self, forKey: .seconds) ?? seconds
        settleSeconds = try values.decodeIfPresent(Int.self, forKey: .settleSeconds) ?? settleSeconds
        rampSeconds = try values.decodeIfPresent(Int.self, forKey: .rampSeconds) ?? rampSeconds
        writesPerDeviceMinute = try values.decodeIfPresent(Double.self, forKey: .writesPerDeviceMinute) ?? writesPerDeviceMinute
        secretBytes = try values.decodeIfPresent(Int.self, forKey: .secretBytes) ?? secretBytes
        waitSeconds = try values.decodeIfPresent(Int.self, forKey: .waitSeconds) ?? waitSeconds
        faults = try values.decodeIfPresent([FleetFault].self, forKey: .faults) ?? faults
        offline = try values.decodeIfPresent(Offline.self, forKey: .offline)
        calls = try values.decodeIfPresent(Calls.self, forKey: .calls) ?? calls
        app = try values.decodeIfPresent(String.self, forKey: .app)
        webCredentialsPerDeviceMinute =
            try values.decodeIfPresent(Double.self, forKey: .webCredentialsPerDeviceMinute) ?? webCredentialsPerDeviceMinute
        associationChecksPerDeviceMinute =
            try values.decodeIfPresent(Double.self, forKey: .associationChecksPerDeviceMinute) ?? associationChecksPerDeviceMinute
        declineShare = try values.decodeIfPresent(Double.self, forKey: .declineShare) ?? declineShare
    }
}
