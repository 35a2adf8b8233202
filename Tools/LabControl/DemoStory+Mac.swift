extension DemoStory {
    /// A Mac's login keychain (docs/keychain.md), played by two Mac apps of the demo world.
    public static let mac: [DemoStory] = [
        DemoStory(
            "A Mac's login keychain: another app asks, Always Allow, then no prompt",
            [
                Step("mac-alice", "com.example.MacMail", ["mac-save", "-"], input: "imap-s3cret"),
                .answer("mac-alice", ["pick 1"]),
                Step("mac-alice", "com.example.MacNotes", ["mac-read"]),
                Step("mac-alice", "com.example.MacNotes", ["mac-read"]),
            ],
            """
            On a Mac, an add that does not ask for the data-protection keychain goes to the user's login keychain,
            where access groups do not apply: each item carries an access list that trusts the app that made it.
            Notes is not on the list of Mail's item, so the Mac asks the user; Always Allow (pick 1) puts Notes
            on the list, and its next read asks nothing.
            """
        ),
        DemoStory(
            "A locked login keychain opens only with the user's password",
            [
                Step("mac-alice", "com.example.MacMail", ["mac-lock"]),
                .answer("mac-alice", ["approve"]),
                Step("mac-alice", "com.example.MacNotes", ["mac-read"]),
            ],
            """
            The login keychain locks apart from the screen. Locked, a call that must open it (an add, a secret, an
            update or a delete) makes the Mac ask: "Notes wants to use the “login” keychain. Please enter the
            keychain password." The user types it (approve), keychaind checks it against its verifier (it never
            stores the password), and the keychain is open again for every app. Cancel would be errSecUserCanceled
            (-128); a call that may show no UI gets errSecInteractionNotAllowed (-25308).
            """
        ),
    ]
}
