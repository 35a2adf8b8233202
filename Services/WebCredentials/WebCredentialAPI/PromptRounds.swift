public import UserAnswers

extension WebCredentialAPI {
    /// The most times one call is made: an answered prompt can lead to another when the keychain
    /// changed meanwhile, but not for ever.
    public static let promptRounds = 4

    /// One call as a device makes it: `send` makes it (with the consent so far), and each prompt
    /// webcredentiald answers with is shown to the user (`answer`) and the call made again with
    /// that consent. The outcome with no prompt, or nil when the prompt changed on every answer
    /// (the caller then answers errSecNotAvailable, as a device does). The device and the fleet
    /// both call through here, on the caller's actor.
    public static func answeringPrompts(
        isolation: isolated (any Actor)? = #isolation,
        _ send: (Consent?) async throws -> Outcome,
        answer: (Prompt) async -> PromptAnswer
    ) async rethrows -> Outcome? {
        var consent: Consent? = nil
        for _ in 0..<promptRounds {
            let outcome = try await send(consent)
            guard let prompt = outcome.prompt else { return outcome }
            consent = Consent(prompt: prompt.id, answer: await answer(prompt))
        }
        return nil
    }
}
