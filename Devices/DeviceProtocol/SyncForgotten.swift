/// What a device's iCloud Keychain forgot at `kclab reset` (``SyncControl/reset``): counts only.
public struct SyncForgotten: Codable, Hashable, Sendable {
    /// The cloud's records the engines mirrored.
    public var mirrored: Int
    /// Local changes not uploaded yet.
    public var queued: Int
    /// The cloud's class-A changes held until the unlock.
    public var held: Int
    /// The views that had fetched a change token.
    public var tokens: Int

    public init(mirrored: Int = 0, queued: Int = 0, held: Int = 0, tokens: Int = 0) {
        self.mirrored = mirrored
        self.queued = queued
        self.held = held
        self.tokens = tokens
    }
}
