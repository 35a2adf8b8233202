extension DemoStory {
    /// A Mac's login keychain (docs/keychain.md), played by two Mac apps of the demo world.
    public static let mac: [DemoStory] = [
        DemoStory(
            "A Mac's login keychain: another app asks, Always Allow, then no prompt",
            [
                Step("mac-alice", "com.example.MacMail", ["mac-save", "imap-s3cret"]),
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
        )
    ]
}
