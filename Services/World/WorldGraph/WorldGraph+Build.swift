public import AppIdentity

extension WorldGraph {
    /// One platform build of an app, with the access groups a device of its platform holds for it.
    public struct Build: Hashable, Sendable, Identifiable {
        /// A build is known by its bundle ID and platform: one bundle ID may have a build per platform.
        public struct ID: Hashable, Sendable, Comparable, CustomStringConvertible {
            /// The bundle ID.
            public var bundleID: BundleID
            /// The platform it is built for.
            public var platform: Platform

            /// An ID from its parts.
            public init(bundleID: BundleID, platform: Platform) {
                self.bundleID = bundleID
                self.platform = platform
            }

            /// By bundle ID, then platform.
            public static func < (lhs: ID, rhs: ID) -> Bool {
                (lhs.bundleID.rawValue, lhs.platform.rawValue) < (rhs.bundleID.rawValue, rhs.platform.rawValue)
            }

            /// `com.example.AppOne (iOS)`.
            public var description: String { "\(bundleID) (\(platform))" }
        }

        /// The bundle ID and platform.
        public var id: ID
        /// The app's display name.
        public var name: String
        /// The team that signs it.
        public var team: TeamID
        /// Its access groups in Apple's order; empty for a refused build.
        public var groups: [HeldGroup]
        /// Why a device's installer refuses it; empty when it installs.
        public var refusals: [Refusal]

        /// A build from its parts.
        public init(id: ID, name: String, team: TeamID, groups: [HeldGroup], refusals: [Refusal]) {
            self.id = id
            self.name = name
            self.team = team
            self.groups = groups
            self.refusals = refusals
        }

        /// Whether a device's installer refuses it.
        public var isRefused: Bool { !refusals.isEmpty }

        /// The group `SecItemAdd` puts an item in when the call names none.
        public var defaultGroup: AccessGroup? {
            groups.first(where: \.isDefault)?.group
        }
    }

    /// One access group in a build's list, and where it comes from.
    public struct HeldGroup: Hashable, Sendable {
        /// Which part of the signature, or of the device, gives a build the group.
        public enum Source: String, Hashable, Sendable, CaseIterable {
            /// The `keychain-access-groups` entitlement.
            case keychainAccessGroups = "keychain-access-groups"
            /// The associated application identifiers (Mac Catalyst).
            case associatedApplicationIdentifier = "associated application identifier"
            /// The application identifier, the build's private group.
            case applicationIdentifier = "application identifier"
            /// The application groups entitlement.
            case applicationGroup = "app group"
            /// `com.apple.token`: read-only, added by a Mac for every app; never shared through.
            case token = "token group"
        }

        /// The group.
        public var group: AccessGroup
        /// Where it comes from.
        public var source: Source
        /// Whether it is the build's default group: the first of the list, unless that is the
        /// read-only token group, which can never be one.
        public var isDefault: Bool

        /// A held group from its parts.
        public init(group: AccessGroup, source: Source, isDefault: Bool) {
            self.group = group
            self.source = source
            self.isDefault = isDefault
        }
    }
}
