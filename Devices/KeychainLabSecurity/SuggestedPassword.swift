/// `SecCreateSharedWebCredentialPassword`'s generator (src CLC): four groups of three characters
/// joined by `-`, from a set without look-alikes (no i j l I O 0 1), with at least one lower-case
/// letter, one upper-case letter and one of `3456789` (a `2` is allowed but does not count).
enum SuggestedPassword {
    static let alphabet = Array("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let countedDigits = Set("3456789")

    static func make() -> String? {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let characters = (0..<12).map { _ in alphabet.randomElement(using: &generator)! }
            if isAcceptable(characters) {
                return stride(from: 0, to: 12, by: 3).map { String(characters[$0..<$0 + 3]) }.joined(separator: "-")
            }
        }
        return nil
    }

    /// The requirement the generator retries until it meets.
    static func isAcceptable(_ characters: [Character]) -> Bool {
        characters.contains(where: \.isLowercase) && characters.contains(where: \.isUppercase) && characters.contains(where: countedDigits.contains)
    }
}
