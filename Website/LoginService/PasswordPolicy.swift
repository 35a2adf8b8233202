/// What the website accepts as a new password: long enough, not the username, not one of the
/// passwords everyone tries first. The message says which rule failed.
public struct PasswordPolicy: Sendable {
    public let minimumLength: Int
    public let maximumLength: Int

    public init(minimumLength: Int = 8, maximumLength: Int = 128) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
    }

    /// The passwords refused whatever their length (the top of every breach list).
    static let common: Set<String> = [
        "password", "password1", "password123", "12345678", "123456789", "1234567890", "qwertyuiop", "11111111",
        "iloveyou", "sunshine", "princess", "football", "baseball", "welcome1", "letmein1", "abc12345", "trustno1",
        "passw0rd", "qwerty123", "1q2w3e4r", "00000000", "superman", "starwars", "whatever",
    ]

    /// Why `password` is refused for `username`, or nil when it is acceptable.
    public func problem(with password: String, username: String) -> String? {
        if password.count < minimumLength { return "The password must have at least \(minimumLength) characters." }
        if password.count > maximumLength { return "The password must have at most \(maximumLength) characters." }
        if password.lowercased() == username.lowercased() { return "The password must not be the username." }
        if Self.common.contains(password.lowercased()) { return "This password is too common; choose another." }
        if Set(password).count < 4 { return "The password needs more different characters." }
        return nil
    }
}
