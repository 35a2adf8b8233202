extension DemoStory {
    static let safari = "com.apple.mobilesafari"
    static let demoApp = "com.example.DemoApp"
    static let adminApp = "com.example.DemoAdminApp"

    /// Seed 002's story, end to end: the browser, the website, the site's apps, the user's answers.
    public static let sharedCredentials: [DemoStory] = [
        DemoStory(
            "Seed 002: a password saved in the browser signs the app in",
            [
                Step("iphone-alice", safari, ["signup", "https://example.com", "--user", "alice", "--password", "-"], input: "Corr3ct-Horse-42"),
                Step("iphone-alice", demoApp, ["web-login"]),
            ],
            """
            Safari created alice's account on example.com's form and saved the password in iCloud Keychain
            (com.apple.cfnetwork, synchronizable). DemoApp found nothing in its own keychain, asked
            SecRequestSharedWebCredential(NULL, NULL): the site approves DemoApp and the user picked alice
            in the iOS 15.4+ password sheet. Signed in, the app saved the login to its keychain and again to
            the shared credentials, unchanged, so no second prompt.
            """
        ),
        DemoStory(
            "Seed 002: the family app signs in from the keychain group; an older iPad's user says Not Now",
            [
                Step("iphone-alice", adminApp, ["web-login"]),
                .kclab(["sync", "wait", "--state", ".demo", "--account", "alice@example.com"]),
                Step.answer("ipad-alice", ["decline", "decline"]),
                Step("ipad-alice", demoApp, ["web-login"]),
                Step("ipad-alice", demoApp, ["web-login", "--user", "alice", "--password", "-"], input: "Corr3ct-Horse-42"),
            ],
            """
            DemoAdminApp lists D3KQX62K1A.com.example.DemoApp in keychain-access-groups, so DemoApp's saved
            login is in its default group: no prompt at all. On the iOS 12 iPad (same iCloud account: once
            iCloud Keychain has carried Safari's password through cloudd, the same saved passwords) the request shows the older picker; "Not Now" gives an empty array and no
            error, and the app must ask the user, as the seed says. Declined again, the app uses what the user
            typed and saves it to both; on iOS 12 an unchanged password is written again without a prompt.
            """
        ),
        DemoStory(
            "Seed 002: the app changes the password; the browser follows",
            [
                Step("iphone-alice", demoApp, ["web-change-password", "--new-password", "-"], input: "N3w-Horse-99"),
                Step("iphone-alice", safari, ["login", "https://example.com", "--user", "alice"]),
            ],
            """
            The website changed the password, the app updated its keychain, and SecAddSharedWebCredential
            asked "Would Like to Update the Saved Password": approved, Safari's AutoFill now signs in with it.
            """
        ),
        DemoStory(
            "Seed 002: the app deletes the account; the saved password goes too",
            [
                Step("iphone-alice", demoApp, ["web-delete"]),
                Step("iphone-alice", safari, ["passwords"]),
            ],
            """
            Deleting passes a NULL password to SecAddSharedWebCredential, which always asks ("per
            rdar://16676288 we always prompt"). `kclab device prompts --device iphone-alice` lists every prompt.
            """
        ),
    ]
}
