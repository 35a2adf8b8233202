import Foundation
import Synchronization

/// A value per device, kept in memory and, when given a file, in a JSON file written atomically on
/// every change (under the lock, in change order) and read back at start; a file larger than
/// `maximumSize` or unreadable is ignored. keychaind keeps its device reports and its login
/// keychains' locks this way.
final class DeviceStateFile<Value: Codable & Sendable>: Sendable {
    private let values: Mutex<[String: Value]>
    private let file: URL?

    init(file: URL?, maximumSize: Int) {
        self.file = file
        var known: [String: Value] = [:]
        if let file, let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, size <= maximumSize,
            let data = try? Data(contentsOf: file)
        {
            known = (try? JSONDecoder().decode([String: Value].self, from: data)) ?? [:]
        }
        values = Mutex(known)
    }

    subscript(device: String) -> Value? {
        values.withLock { $0[device] }
    }

    /// Changes `device`'s value and writes the file; returns what `change` returns.
    func update<T>(_ device: String, _ change: (inout Value?) -> T) -> T {
        values.withLock { values in
            let result = change(&values[device])
            if let file, let data = try? JSONEncoder().encode(values) {
                try? data.write(to: file, options: .atomic)
            }
            return result
        }
    }
}
