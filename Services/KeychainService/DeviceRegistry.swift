import Foundation
import KeychainAPI
import KeychainTypes
import Synchronization

/// What each device last reported about itself.
final class DeviceRegistry: Sendable {
    // Every access goes through this Mutex.
    private let reports = Mutex<[String: KeychainAPI.DeviceReport]>([:])

    func record(_ report: KeychainAPI.DeviceReport, device: String) {
        reports.withLock { $0[device] = report }
    }

    func report(for device: String) -> KeychainAPI.DeviceReport? {
        reports.withLock { $0[device] }
    }
}
