public import AppIdentity
public import Foundation
import WorldLayout

/// What a built world says of each device (`devices/ID/device.json`): its ID, UDID, platform and
/// release, for tools that check bundles as that device does.
public struct DeviceDescription: Codable, Hashable, Sendable {
    public var id: String
    public var udid: String
    public var platform: Platform
    public var osVersion: String

    public init(id: String, udid: String, platform: Platform, osVersion: String) {
        self.id = id
        self.udid = udid
        self.platform = platform
        self.osVersion = osVersion
    }

    /// The description of device `id` in the built world at `world`, if it has one.
    public static func read(device id: String, world: URL) -> DeviceDescription? {
        (try? Data(contentsOf: world.appending(path: WorldLayout.deviceDescription(id))))
            .flatMap { try? JSONDecoder().decode(DeviceDescription.self, from: $0) }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
