import Foundation

/// What a fleet run does: how many light devices, how they share accounts, for how long, and how
/// often each writes a synced item. Every device keeps waiting on its account's zone (the lab's
/// push) and fetches what changed, as a real device's sync engine does.
public struct FleetPlan: Sendable, Codable, Equatable {
    /// Simulated devices, each a task with its own device identity.
    public var devices: Int = 1000
    /// Devices signed in to each iCloud account (the last account may have fewer).
    public var devicesPerAccount: Int = 4
    /// How long writes go on, in seconds; then the fleet waits up to `settleSeconds` for every
    /// write to reach every other device of its account.
    public var seconds: Int = 60
    public var settleSeconds: Int = 20
    /// Devices start one after another over this many seconds (capped at `seconds`), as load
    /// tools ramp their users up, rather than a thousand TLS handshakes at once.
    public var rampSeconds: Int = 10
    /// Synced writes each device makes a minute, on average (at random, exponential gaps).
    public var writesPerDeviceMinute: Double = 6
    /// The size of each item's secret, in bytes.
    public var secretBytes: Int = 64
    /// How long each wait on the zone lasts when nothing changes: the one cost that grows with
    /// the number of devices whatever they write. At most 55 s (cloudd holds a wait up to 60 s;
    /// the call's deadline is the wait and 10 s).
    public var waitSeconds: Int = 25
    /// Faults caused during the run, in the fleet's own cloud.
    public var faults: [FleetFault] = []
    /// Devices that go offline for a while and come back.
    public var offline: Offline?
    /// SecItem calls each device's app makes a minute, by kind, on keychaind's call channel.
    public var calls = Calls()
    /// Association checks each device makes a minute, on average: whether its app may use one
    /// of its `webcredentials` hosts, asked of associationd.
    public var associationChecksPerDeviceMinute: Double = 1
    /// Shared web credential calls each device's app makes a minute, on average: half save a
    /// password for one of its `webcredentials` hosts, half ask for the host's passwords.
    public var webCredentialsPerDeviceMinute: Double = 0.5
    /// The world app each device installs and calls from (its bundle ID); nil: the world's first
    /// app whose profile provisions every device.
    public var app: String?
    /// The share of devices, 0 to 1, whose user declines every prompt ("Not Now"; spread evenly
    /// over the devices); the others' users approve each one (the first account of a picker).
    public var declineShare: Double = 0

    /// A share of the devices losing the network at `atSeconds` for `seconds`: they neither wait
    /// nor fetch, and keep their writes until they are back, then upload them in one batch and
    /// catch up from their change token, as a phone out of coverage does.
    public struct Offline: Sendable, Codable, Equatable {
        /// The share of devices, 0 to 1: every device whose index falls on it (spread evenly).
        public var fraction: Double
        public var atSeconds: Int
        public var seconds: Int

        public init(fraction: Double, atSeconds: Int, seconds: Int) {
            self.fraction = fraction
            self.atSeconds = atSeconds
            self.seconds = seconds
        }

        /// Whether device `index` is one of those that go offline.
        public func includes(_ index: Int) -> Bool {
            FleetPlan.share(fraction, includes: index)
        }
    }

    public init() {}

    /// Whether device `index` falls on a share `fraction` (0 to 1) of the devices, spread evenly:
    /// every 1/fraction-th device, so any run of devices holds its share.
    public static func share(_ fraction: Double, includes index: Int) -> Bool {
        fraction > 0 && (Double(index) * fraction).rounded(.down) != (Double(index + 1) * fraction).rounded(.down)
    }

    /// Whether the user of device `index` declines every prompt.
    public func declines(_ index: Int) -> Bool { Self.share(declineShare, includes: index) }

    /// The plan's keys, in JSON reports and scenario files alike.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case devices, devicesPerAccount, seconds, settleSeconds, rampSeconds, writesPerDeviceMinute, secretBytes, waitSeconds, faults, offline
        case calls, app, associationChecksPerDeviceMinute, webCredentialsPerDeviceMinute, declineShare
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// The most devices one fleet process runs.
    public static let maximumDevices = 20_000

    /// Refuses a plan that cannot run, saying why.
    public func validate() throws(Invalid) {
        guard (1...Self.maximumDevices).contains(devices) else {
            throw Invalid(description: "devices must be 1 to \(Self.maximumDevices), not \(devices)")
        }
        guard (1...devices).contains(devicesPerAccount) else { throw Invalid(description: "devices per account must be 1 to \(devices)") }
        guard (1...86_400).contains(seconds), (0...3_600).contains(settleSeconds) else {
            throw Invalid(description: "seconds must be 1 to 86400, settle 0 to 3600")
        }
        guard (0...3_600).contains(rampSeconds) else { throw Invalid(description: "the ramp must be 0 to 3600 seconds") }
        guard writesPerDeviceMinute >= 0, writesPerDeviceMinute <= 600 else {
            throw Invalid(description: "writes per device a minute must be 0 to 600")
        }
        guard (1...65_536).contains(secretBytes) else { throw Invalid(description: "the secret must be 1 to 65536 bytes") }
        guard (1...55).contains(waitSeconds) else { throw Invalid(description: "a wait must last 1 to 55 seconds (cloudd holds one up to 60)") }
        if let offline {
            guard (0...1).contains(offline.fraction), (0..<seconds).contains(offline.atSeconds), (1...3_600).contains(offline.seconds) else {
                throw Invalid(description: "offline: the fraction must be 0 to 1, atSeconds within the run, seconds 1 to 3600")
            }
        }
        try calls.validate()
        guard associationChecksPerDeviceMinute >= 0, associationChecksPerDeviceMinute <= 600 else {
            throw Invalid(description: "association checks a device a minute must be 0 to 600")
        }
        guard webCredentialsPerDeviceMinute >= 0, webCredentialsPerDeviceMinute <= 600 else {
            throw Invalid(description: "web credential calls a device a minute must be 0 to 600")
        }
        guard (0...1).contains(declineShare) else { throw Invalid(description: "the share of users who decline must be 0 to 1") }
        guard faults.count <= 32, faults.allSatisfy({ (0..<seconds).contains($0.atSeconds) }) else {
            throw Invalid(description: "at most 32 faults, each within the run's \(seconds) s")
        }
    }

    /// The account of device `index` in run `run`: `fleet-RUN-N@fleet.keychainlab.test`. Each
    /// run has accounts of its own, whose sealing keys only it holds: a run never meets what an
    /// earlier one left in cloudd.
    public func account(of index: Int, run: String) -> String {
        "fleet-\(run)-\(index / devicesPerAccount)@fleet.keychainlab.test"
    }

    /// When device `index` starts, after the run's start: spread evenly over the ramp.
    public func startOffset(of index: Int) -> Duration {
        .milliseconds(min(rampSeconds, seconds) * 1000 * index / devices)
    }

    /// How many accounts the devices are spread over.
    public var accounts: Int { (devices + devicesPerAccount - 1) / devicesPerAccount }
}
