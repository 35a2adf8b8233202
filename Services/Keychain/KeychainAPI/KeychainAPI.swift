public import AppIdentity
public import Foundation
public import KeychainTypes
public import LabErrors

/// The JSON bodies of keychaind's API, shared by keychaind and the devices (openapi.yaml beside
/// this file is the contract).
public enum KeychainAPI {
    /// `PUT /v1/device`: what the device says about its running state; it is trusted the way an OS
    /// kernel is, except for the iCloud account, which must be the one its certificate names.
    public struct DeviceReport: Codable, Hashable, Sendable {
        public var platform: Platform
        public var osVersion: OSVersion
        public var iCloudAccount: String?
        public var hasPasscode: Bool
        public var isLocked: Bool
        public var unlockedSinceBoot: Bool

        public init(platform: Platform, osVersion: OSVersion, iCloudAccount: String?, hasPasscode: Bool, isLocked: Bool, unlockedSinceBoot: Bool) {
            self.platform = platform
            self.osVersion = osVersion
            self.iCloudAccount = iCloudAccount
            self.hasPasscode = hasPasscode
            self.isLocked = isLocked
            self.unlockedSinceBoot = unlockedSinceBoot
        }
    }

    /// `POST /v1/apps`: an installed app's signed files, from which keychaind works out its identity.
    public struct AppRegistration: Codable, Hashable, Sendable {
        /// `embedded.mobileprovision`, DER (base64 in JSON).
        public var profile: Data
        /// `_CodeSignature/CodeSignature`, DER (base64 in JSON).
        public var codeSignature: Data

        public init(profile: Data, codeSignature: Data) {
            self.profile = profile
            self.codeSignature = codeSignature
        }
    }

    /// The answer to a registration: the reference later calls name, and what the signature grants.
    public struct RegisteredApp: Codable, Hashable, Sendable {
        /// The SHA-256 of the signed files, hex: the app's reference in calls.
        public var app: String
        public var appID: AppID
        public var teamID: TeamID
        /// In the order securityd holds them (token group rules applied).
        public var accessGroups: [AccessGroup]

        public init(app: String, appID: AppID, teamID: TeamID, accessGroups: [AccessGroup]) {
            self.app = app
            self.appID = appID
            self.teamID = teamID
            self.accessGroups = accessGroups
        }
    }

    /// `POST /v1/items/{call}`: one SecItem call made by a registered app.
    public struct CallRequest: Codable, Hashable, Sendable {
        /// The app's reference from its registration.
        public var app: String
        /// The query or attributes dictionary.
        public var query: [String: SecValue]
        /// `attributesToUpdate`, for `update` only.
        public var attributesToUpdate: [String: SecValue]?
        /// The device's user's answer when the call was made again after a login-keychain prompt;
        /// set by the device, never by the app.
        public var userApproval: UserApproval?

        public init(
            app: String,
            query: [String: SecValue],
            attributesToUpdate: [String: SecValue]? = nil,
            userApproval: UserApproval? = nil
        ) {
            self.app = app
            self.query = query
            self.attributesToUpdate = attributesToUpdate
            self.userApproval = userApproval
        }
    }

    /// A SecItem call a system service (webcredentiald) makes in a device's keychain, with the
    /// system's own access group for saved website passwords, `com.apple.cfnetwork`.
    public struct SystemCallRequest: Codable, Hashable, Sendable {
        /// The device's UDID.
        public var device: String
        /// The query or attributes dictionary.
        public var query: [String: SecValue]
        /// `attributesToUpdate`, for `update` only.
        public var attributesToUpdate: [String: SecValue]?

        public init(device: String, query: [String: SecValue], attributesToUpdate: [String: SecValue]? = nil) {
            self.device = device
            self.query = query
            self.attributesToUpdate = attributesToUpdate
        }
    }

    /// The outcome of a call: the OSStatus, its name, the result and, for a refusal, the rule.
    public struct CallResponse: Codable, Hashable, Sendable {
        public var status: Int32
        public var name: String
        public var result: SecValue?
        public var reason: String?
        /// For errSecInteractionNotAllowed on a Mac's login keychain: what the device must ask its
        /// user (to allow the app the use of an item, or to unlock the keychain), then call again.
        public var confirmation: Confirmation?

        public init(status: SecStatus, result: SecValue?, reason: String?, confirmation: Confirmation? = nil) {
            self.status = status.code
            name = status.name
            self.result = result
            self.reason = reason
            self.confirmation = confirmation
        }
    }

    /// Any HTTP error's body, and the call channel's refusals: a code of ``ProblemCode``'s table.
    public typealias Problem = APIProblem<ProblemCode>
}
