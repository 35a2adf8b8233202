/// One story of the demo: what it shows, the apps that act, and why the result is what it is.
public struct DemoStory: Sendable {
    /// One step: an app run on a device with its arguments, an app's update installed, the
    /// device's user told how to answer the next prompts, or a kclab command.
    public struct Step: Sendable {
        public enum Action: Sendable {
            case run([String])
            /// Install the app's later version (`kclab app update`).
            case update
            /// Script the user's next answers (`kclab device answer`).
            case answer([String])
            /// A kclab command the reader types against the lab (its `--state .demo` pointed at
            /// the demo's state folder), such as `assetlinks check`.
            case kclab([String])
        }

        public let device: String
        public let app: String
        public let action: Action
        /// A secret the app reads on its standard input (its argument is `-`), never an argument.
        public let input: String?

        public init(_ device: String, _ app: String, _ arguments: [String], input: String? = nil) {
            self.init(device: device, app: app, action: .run(arguments), input: input)
        }

        private init(device: String, app: String, action: Action, input: String? = nil) {
            self.device = device
            self.app = app
            self.action = action
            self.input = input
        }

        /// Installs `app`'s later version on `device`.
        public static func update(_ device: String, _ app: String) -> Step {
            Step(device: device, app: app, action: .update)
        }

        /// `kclab ARGUMENTS`, run against the lab.
        public static func kclab(_ arguments: [String]) -> Step {
            Step(device: "", app: "", action: .kclab(arguments))
        }

        /// The user of `device` answers the next prompts so.
        public static func answer(_ device: String, _ answers: [String]) -> Step {
            Step(device: device, app: "", action: .answer(answers))
        }
    }

    public let title: String
    public let steps: [Step]
    public let explanation: String

    public init(_ title: String, _ steps: [Step], _ explanation: String) {
        self.title = title
        self.steps = steps
        self.explanation = explanation
    }
}

extension DemoStory {
    /// The seeds' stories, played by the demo world's apps (Tools/worlds/demo.yaml).
    public static let seeds: [DemoStory] = [
        DemoStory(
            "Seed 000: App One and App Two share a token through a keychain access group",
            [
                Step("iphone-alice", "com.example.AppOne", ["groups"]),
                Step("iphone-alice", "com.example.AppOne", ["save-token", "-"], input: "s3cret-token"),
                Step("iphone-alice", "com.example.AppTwo", ["read-token"]),
            ],
            """
            Both apps list $(AppIdentifierPrefix)com.example.SharedItems first in keychain-access-groups, so it is
            each one's default group: App One's add lands there and App Two finds it, with no group named.
            """
        ),
        DemoStory(
            "Seed 004: the private group stays private",
            [
                Step("iphone-alice", "com.example.AppOne", ["save-private", "-"], input: "diary"),
                Step("iphone-alice", "com.example.AppTwo", ["read-private"]),
                Step("iphone-alice", "com.example.AppOne", ["read-private"]),
            ],
            "An item in ABCDE12345.com.example.AppOne, App One's application identifier, is App One's alone."
        ),
        DemoStory(
            "Seed 004: an app whose prefix changed no longer sees its earlier items",
            [
                Step("iphone-alice", "com.example.LegacyNotes", ["save-token", "-"], input: "meeting-notes"),
                .update("iphone-alice", "com.example.LegacyNotes"),
                Step("iphone-alice", "com.example.LegacyNotes", ["groups"]),
                Step("iphone-alice", "com.example.LegacyNotes", ["read-token"]),
                Step("iphone-alice", "com.example.LegacyNotes", ["snoop", "Q7LEGACY42.com.example.LegacyNotes"]),
            ],
            """
            Legacy Notes was signed under the legacy prefix Q7LEGACY42, so its item went to
            Q7LEGACY42.com.example.LegacyNotes. The update is signed under the team ID: its groups are
            ABCDE12345.com.example.LegacyNotes only. The item is still in the keychain, but in a group the
            app no longer belongs to: "if you change the prefix ID, you lose data in the previous keychain".
            """
        ),
        DemoStory(
            "Seed 000: App One and its extension share through an application group",
            [
                Step("iphone-alice", "com.example.AppOne", ["save-suite", "-"], input: "suite-settings"),
                Step("iphone-alice", "com.example.AppOne.Suite", ["read-suite"]),
                Step("iphone-alice", "com.example.AppTwo", ["read-suite"]),
            ],
            "group.com.example.AppSuite is in App One's and the extension's groups (after their app IDs), not App Two's."
        ),
        DemoStory(
            "Another team's app sees nothing",
            [
                Step("iphone-alice", "com.other.Snooper", ["read-token"]),
                Step("iphone-alice", "com.other.Snooper", ["snoop", "ABCDE12345.com.example.SharedItems"]),
                Step("ipad-alice", "com.other.Snooper", ["snoop", "ABCDE12345.com.example.SharedItems"]),
            ],
            """
            Snooper's "com.example.SharedItems" carries its own prefix, OTHER98765: another group. Naming
            ABCDE12345's group is refused with errSecMissingEntitlement (-34018) on iOS 13 and later; the iOS 12
            iPad finds nothing (errSecItemNotFound, -25300), as seed 000 still documents. Com.other.Thief, which
            claims ABCDE12345's group outright, was refused at install.
            """
        ),
        DemoStory(
            "Seed 001: learning the team prefix at run time",
            [Step("iphone-alice", "com.bencoding.KeyStorageDemo", ["discover-team"])],
            "KeyChainAccessGroupHelper, compiled unchanged, adds a probe item and reads its access group back."
        ),
        DemoStory(
            "Seed 003: a family sharing through a common bundle seed ID",
            [
                Step("iphone-alice", "com.useyourloaf.amazingApp1", ["family-write", "-"], input: "family-secret"),
                Step("iphone-alice", "com.useyourloaf.amazingApp2", ["family-read"]),
                Step("iphone-alice", "com.useyourloaf.amazingLite", ["family-read"]),
            ],
            """
            Both apps are signed with the bundle seed ID ABC1234DEF, not their team ID, and list
            ABC1234DEF.amazingAppFamily. Amazing Lite (a wildcard App ID) has only its private group.
            """
        ),
        DemoStory(
            "Seed 000's snippet, unchanged",
            [Step("iphone-alice", "com.example.AppOne", ["seed000"])],
            """
            The article's code names ".com.example.SharedItems": its team-ID prefix was lost on the page, so
            the group is none of App One's, and both the add and the read are refused with
            errSecMissingEntitlement (-34018). Seed 001's helper is the remedy: it learns the prefix.
            """
        ),
    ]
}
