import Foundation
import KeychainAPI
import KeychainTypes
import Synchronization

/// What each device last reported about itself, kept in `STATE/devices.json` as well, so that a
/// restarted keychaind still knows every device's platform, release, passcode and lock state: the
/// system services (webcredentiald) and the operator's routes ask about devices that have not
/// called since. A device reports again whenever its state changes.
final class DeviceRegistry: Sendable {
    // Every access goes through this Mutex; the file is written under it, in report order.
    private let reports: Mutex<[String: KeychainAPI.DeviceReport]>
    private let file: URL?

    /// The file holds what verified devices reported; one larger than this is not read.
    static let maximumFileSize = 4 << 20

    /// A registry kept in `file` (read back when it exists), or in memory only.
    init(file: URL? = nil) {
        self.file = file
        var known: [String: KeychainAPI.DeviceReport] = [:]
        if let file, let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, size <= Self.maximumFileSize,
            let data = try? Data(contentsOf: file)
        {
            known = (try? JSONDecoder().decode([String: KeychainAPI.DeviceReport].self, from: data)) ?? [:]
        }
        reports = Mutex(known)
    }

    func record(_ report: KeychainAPI.DeviceReport, device: String) {
        reports.withLock { reports in
            reports[device] = report
            guard let file, let data = try? JSONEncoder().encode(reports) else { return }
            try? data.write(to: file, options: .atomic)
        }
    }

    func report(for device: String) -> KeychainAPI.DeviceReport? {
        reports.withLock { $0[device] }
    }
}
