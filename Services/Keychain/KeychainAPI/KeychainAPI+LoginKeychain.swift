extension KeychainAPI {
    /// `POST /v1/login-keychain/unlock`: the user's password, from a Mac unlocking its login
    /// keychain (at login, or when the user typed it into a prompt). The first unlock creates the
    /// keychain with this password.
    public struct LoginKeychainUnlock: Codable, Hashable, Sendable {
        public var password: String

        public init(password: String) {
            self.password = password
        }
    }

    /// A Mac's login keychain as keychaind keeps it: whether it exists yet and whether it is locked.
    public struct LoginKeychainState: Codable, Hashable, Sendable {
        public var exists: Bool
        public var isLocked: Bool

        public init(exists: Bool, isLocked: Bool) {
            self.exists = exists
            self.isLocked = isLocked
        }
    }
}
