extension DemoStory {
    /// The certificate Play App Signing signs the demo's Android app with, and the upload key
    /// its developer signs uploads with (Play Console, App integrity): made-up fingerprints.
    public static let androidSigningKey = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    public static let androidUploadKey = "B7:40:9A:2C:55:E1:0F:63:8D:91:4A:C2:7E:08:D3:16:99:5B:E4:20:6F:A7:31:C8:0D:52:96:EB:47:1A:BC:38"

    /// The world's sites read as Android and Google's API read them (docs/assetlinks.md), and
    /// one site checked for both platforms at once.
    public static let android: [DemoStory] = [
        DemoStory(
            "The same site, checked for Android",
            ["example.com", "www.example.com", "support.example.com"].map { host in
                .kclab([
                    "assetlinks", "check", host, "--state", ".demo", "--package", "com.example.demo", "--fingerprint", androidSigningKey,
                ])
            } + [
                .kclab([
                    "site", "check", "www.example.com", "--state", ".demo", "--app", "D3KQX62K1A.com.example.DemoApp", "--package",
                    "com.example.demo:\(androidSigningKey)",
                ])
            ],
            """
            A team with an Android app serves /.well-known/assetlinks.json beside the association file. example.com's
            links com.example.demo under its signing certificate for App Links (handle_all_urls) and for passwords
            (get_login_creds): Android verifies the host and Google's API reads it cleanly. www.example.com's lists
            the upload key's fingerprint, not the one Play App Signing signs with, so neither reader links the app,
            and kclab site check shows what it costs: iOS offers www's passwords in DemoApp, Android offers them in
            no app. support.example.com serves no file at all (404).
            """
        )
    ]
}
