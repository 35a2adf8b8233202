public import Foundation

extension FleetPlan {
    /// What `kclab fleet`'s options give on top of a scenario (or the defaults): each one set
    /// replaces the plan's value; faults are added to the scenario's.
    public struct Overrides: Sendable {
        public var devices: Int?
        public var devicesPerAccount: Int?
        public var seconds: Int?
        public var settleSeconds: Int?
        public var rampSeconds: Int?
        public var writesPerDeviceMinute: Double?
        public var waitSeconds: Int?
        /// SecItem calls a minute in all, in the plan's proportions (0: none).
        public var callsPerMinute: Double?
        public var associationChecksPerDeviceMinute: Double?
        public var webCredentialsPerDeviceMinute: Double?
        public var app: String?
        public var declineShare: Double?
        /// Faults as the command line writes them, `kind@SECONDS`.
        public var faults: [String] = []

        public init() {}
    }

    /// The plan of the scenario file at `scenario` (nil: the defaults) with `overrides` on top,
    /// checked; a refusal names the file.
    public init(scenario: URL?, overrides: Overrides) throws(Invalid) {
        do throws(Invalid) {
            if let scenario {
                let size = (try? FileManager.default.attributesOfItem(atPath: scenario.path)[.size] as? Int) ?? 0
                guard size <= Self.maximumScenarioSize else { throw Invalid(description: "it is over 64 KiB: a scenario is a plan") }
                let text: Data
                do {
                    text = try Data(contentsOf: scenario)
                } catch {
                    throw Invalid(description: "it cannot be read: \(error.localizedDescription)")
                }
                self = try FleetPlan(scenario: String(decoding: text, as: UTF8.self))
            } else {
                self.init()
            }
            try apply(overrides)
        } catch {
            throw Invalid(description: "\(scenario.map { "\($0.path): " } ?? "")\(error.description)")
        }
    }

    private mutating func apply(_ overrides: Overrides) throws(Invalid) {
        devices = overrides.devices ?? devices
        devicesPerAccount = overrides.devicesPerAccount ?? devicesPerAccount
        seconds = overrides.seconds ?? seconds
        settleSeconds = overrides.settleSeconds ?? settleSeconds
        rampSeconds = overrides.rampSeconds ?? rampSeconds
        writesPerDeviceMinute = overrides.writesPerDeviceMinute ?? writesPerDeviceMinute
        waitSeconds = overrides.waitSeconds ?? waitSeconds
        if let total = overrides.callsPerMinute { calls = calls.scaled(toTotal: total) }
        associationChecksPerDeviceMinute = overrides.associationChecksPerDeviceMinute ?? associationChecksPerDeviceMinute
        webCredentialsPerDeviceMinute = overrides.webCredentialsPerDeviceMinute ?? webCredentialsPerDeviceMinute
        app = overrides.app ?? app
        declineShare = overrides.declineShare ?? declineShare
        for fault in overrides.faults { faults.append(try FleetFault(parsing: fault, seconds: seconds)) }
        try validate()
    }
}
