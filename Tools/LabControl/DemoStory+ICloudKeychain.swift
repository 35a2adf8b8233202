extension DemoStory {
    static let alice = ["--state", ".demo", "--account", "alice@example.com"]

    /// iCloud Keychain as it syncs (docs/icloud-keychain.md): each device's own copy, a device
    /// offline, a conflict the server's copy wins, a delete that travels.
    public static let iCloudKeychain: [DemoStory] = [
        DemoStory(
            "iCloud Keychain: the iPhone offline, two edits, the server's copy wins",
            [
                Step("iphone-alice", demoApp, ["sync-save", "-"], input: "first-n0tes"),
                .kclab(["sync", "wait"] + alice),
                Step("mac-alice", demoApp, ["sync-read"]),
                .kclab(["device", "offline", "--state", ".demo", "--device", "iphone-alice"]),
                Step("iphone-alice", demoApp, ["sync-save", "-"], input: "iphone-n0tes"),
                Step("mac-alice", demoApp, ["sync-save", "-"], input: "mac-n0tes"),
                .kclab(["sync", "wait"] + alice),
                Step("ipad-alice", demoApp, ["sync-read"]),
                Step("iphone-alice", demoApp, ["sync-read"]),
                .kclab(["device", "online", "--state", ".demo", "--device", "iphone-alice"]),
                .kclab(["sync", "wait"] + alice),
                Step("iphone-alice", demoApp, ["sync-read"]),
                Step("mac-alice", demoApp, ["sync-delete"]),
                .kclab(["sync", "wait"] + alice),
                Step("ipad-alice", demoApp, ["sync-read"]),
            ],
            """
            Each device keeps its own copy of alice's synchronizable items; a change reaches another device only
            once the writer has uploaded it to cloudd and the other has fetched it. Offline, the iPhone keeps its
            edit queued while the Mac's reaches the cloud and the iPad. Back online, the iPhone fetches first:
            the cloud changed the record since the iPhone last saw it, so CKKS drops the pending local edit and
            applies the server's copy (a stale change tag loses). The Mac's delete leaves a tombstone that
            becomes a record delete, and the iPad deletes its copy by UUID.
            """
        )
    ]
}
