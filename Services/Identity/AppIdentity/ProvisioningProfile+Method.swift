extension ProvisioningProfile {
    /// How a profile lets its app be distributed, named as Xcode's export methods name them.
    public enum Method: String, Hashable, Sendable, CaseIterable {
        /// iOS: `get-task-allow` and a device list; macOS: a device list.
        case development
        /// iOS only: a device list without `get-task-allow`.
        case adHoc = "ad-hoc"
        /// iOS in-house: `ProvisionsAllDevices`.
        case enterprise
        /// No device list: the store installs it.
        case appStore = "app-store"
        /// macOS outside the store: `ProvisionsAllDevices` on a Mac profile.
        case developerID = "developer-id"
    }

    /// The profile's method. A Mac has no ad hoc or enterprise profiles: its development profiles
    /// list devices without granting `get-task-allow` (Xcode signs that itself), and its
    /// Developer ID profiles provision every device.
    public var method: Method {
        if isForMac {
            if provisionedDevices != nil { return .development }
            return provisionsAllDevices ? .developerID : .appStore
        }
        if kind == .development { return .development }
        if provisionsAllDevices { return .enterprise }
        return provisionedDevices != nil ? .adHoc : .appStore
    }
}
