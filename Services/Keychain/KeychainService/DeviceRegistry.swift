import Foundation
import KeychainAPI
import KeychainTypes
import ServiceSupport

/// What each device last reported about itself, kept in `STATE/devices.json` as well, so that a
/// restarted keychaind still knows every device's platform, release, passcode and lock state: the
/// system services (webcredentiald) and the operator's routes ask about devices that have not
/// called since. A device reports again whenever its state changes.
final class DeviceRegistry: Sendable {
    private let reports: KeyedStateFile<KeychainAPI.DeviceReport>

    /// The file holds what verified devices reported, a line a report (a fleet of 20,000 devices
    /// writes about 4 MiB, and up to twice as much again before the file is compacted); one
    /// larger than this is not read.
    static let maximumFileSize = 64 << 20

    /// A registry kept in `file` (read back when it exists), or in memory only.
    init(file: URL? = nil) {
        reports = KeyedStateFile(file: file, maximumSize: Self.maximumFileSize)
    }

    func record(_ report: KeychainAPI.DeviceReport, device: String) {
        reports.update(device) { $0 = report }
    }

    func report(for device: String) -> KeychainAPI.DeviceReport? {
        reports[device]
    }
}
