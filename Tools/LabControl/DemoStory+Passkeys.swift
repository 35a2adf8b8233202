extension DemoStory {
    /// Passkeys through the webcredentials association (docs/passkeys.md), played by DemoApp and
    /// the login website.
    public static let passkeys: [DemoStory] = [
        DemoStory(
            "Passkeys: made on the iPhone, used on the Mac, refused where iOS refuses",
            [
                .answer("iphone-alice", ["approve"]),
                Step("iphone-alice", "com.example.DemoApp", ["web-passkey-signup", "--user", "carol"]),
                .kclab(["sync", "wait", "--state", ".demo", "--account", "alice@example.com"]),
                .answer("mac-alice", ["pick 1"]),
                Step("mac-alice", "com.example.DemoApp", ["web-passkey-login"]),
                Step("iphone-alice", "com.other.Snooper", ["web-passkey-login"]),
                .answer("iphone-alice", ["decline"]),
                Step("iphone-alice", "com.example.DemoApp", ["web-passkey-login"]),
                Step("ipad-alice", "com.example.DemoApp", ["web-passkey-login"]),
            ],
            """
            DemoApp asks example.com for registration options and performs an ASAuthorizationController request:
            the device checks that example.com's webcredentials entry lists DemoApp, the user approves "Save a
            passkey", and the platform authenticator makes a P-256 key whose private half stays in the keychain's
            passkey group, synchronized with alice's iCloud account; the website verifies the attestation and
            keeps only the public key. Once iCloud Keychain has carried it (the iPhone uploads it to the Passwords
            zone, the Mac fetches it), on alice's Mac the same passkey signs in (the website checks the signature
            over its fresh challenge). Snooper is not listed by the site, so iOS fails its request ("not associated
            with domain"); a user who cancels the sheet gives ASAuthorizationError.canceled; the iPad runs iOS
            12.5, before passkeys (iOS 16), so the request is not handled.
            """
        )
    ]
}
