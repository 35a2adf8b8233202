import AppIdentity
import Crypto
import Foundation
import UserAnswers

extension Device {
    static let keys = [
        "id", "udid", "platform", "osVersion", "iCloudAccount", "iCloudAccounts", "passcode", "apps", "passwordAutoFill", "user", "browser",
        "developerMode", "mdm",
    ]

    init(yaml value: YAMLValue) throws(WorldError) {
        let mapping = try value.mapping(known: Self.keys)
        let idValue = try mapping.required("id")
        let id = try idValue.string()
        guard Self.isValidID(id) else {
            throw idValue.error(.malformedValue, "'\(id)' is not a device ID: use lower-case letters, digits and '-' (like iphone-alice)")
        }
        var udid = Self.derivedUDID(id)
        if let udidValue = mapping.optional("udid") {
            udid = try udidValue.string().uppercased()
            guard Self.isValidUDID(udid) else {
                throw udidValue.error(
                    .malformedValue,
                    "'\(udid)' is not a UDID: expected 40 hex digits or 8-16 hex digits like 00008030-001A2B3C4D5E802E"
                )
            }
        }
        var apps: [BundleID] = []
        for element in try mapping.optional("apps")?.sequence() ?? [] {
            apps.append(try element.parse { text throws(IdentityError) in try BundleID(text) })
        }
        let platform = try mapping.optional("platform")?.choice(Platform.self) ?? .ios
        var passcode: String?
        if let passcodeValue = mapping.optional("passcode") {
            let text = try passcodeValue.string()
            if platform == .macos {
                // A Mac's is the user's account password, which opens the login keychain too.
                guard (1...128).contains(text.count), !text.contains(where: \.isNewline) else {
                    throw passcodeValue.error(.malformedValue, "a Mac's passcode (the user's password) is 1 to 128 characters on one line")
                }
            } else if !((4...16).contains(text.count) && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)) {
                throw passcodeValue.error(.malformedValue, "a passcode is 4 to 16 digits")
            }
            passcode = text
        }
        let account = try mapping.optional("iCloudAccount").map(Self.iCloudAccount)
        var otherAccounts: [String] = []
        for element in try mapping.optional("iCloudAccounts")?.sequence() ?? [] {
            let other = try Self.iCloudAccount(element)
            if other != account, !otherAccounts.contains(other) { otherAccounts.append(other) }
        }
        guard let versionValue = mapping.optional("osVersion") else {
            throw value.error(.missingKey, "the required key 'osVersion' is missing")
        }
        self.init(
            id: id,
            udid: udid,
            platform: platform,
            osVersion: try versionValue.parse { text throws(IdentityError) in try OSVersion(text) },
            iCloudAccount: account,
            otherICloudAccounts: otherAccounts,
            passcode: passcode,
            apps: apps,
            passwordAutoFill: try mapping.optional("passwordAutoFill")?.bool() ?? true,
            user: try mapping.optional("user").map(Self.user) ?? ScriptedUser(),
            hasBrowser: try mapping.optional("browser")?.bool() ?? true,
            developerMode: try mapping.optional("developerMode")?.bool() ?? true,
            mdm: try mapping.optional("mdm").map(Self.mdm)
        )
    }

    /// An iCloud account: an address of letters, digits and `._%+-`, since it names the
    /// account's folder in the built world.
    static func iCloudAccount(_ value: YAMLValue) throws(WorldError) -> String {
        let text = try value.string()
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._%+-@".contains($0)) }
        guard text.contains("@"), allowed, !text.hasPrefix(".") else {
            throw value.error(.malformedValue, "'\(text)' is not an iCloud account (an email address)")
        }
        return text
    }

    /// `mdm: {domains: [example.com], directDownloads: false}`.
    static func mdm(_ value: YAMLValue) throws(WorldError) -> MDM {
        let mapping = try value.mapping(known: ["domains", "directDownloads"])
        var domains: [String] = []
        for element in try mapping.optional("domains")?.sequence() ?? [] {
            let domain = try element.string().lowercased()
            guard Website.isHostName(domain) else { throw element.error(.malformedValue, "'\(domain)' is not a domain name") }
            domains.append(domain)
        }
        return MDM(domains: domains, directDownloads: try mapping.optional("directDownloads")?.bool() ?? false)
    }

    /// `user: {answers: [approve, decline, "pick 2", "wait 2s then approve"], default: approve}`.
    static func user(_ value: YAMLValue) throws(WorldError) -> ScriptedUser {
        let mapping = try value.mapping(known: ["answers", "default"])
        func answer(_ element: YAMLValue) throws(WorldError) -> ScriptedAnswer {
            let text = try element.string()
            guard let answer = ScriptedAnswer(text: text) else {
                throw element.error(.malformedValue, "'\(text)' is not an answer: write \(ScriptedAnswer.grammar)")
            }
            return answer
        }
        var answers: [ScriptedAnswer] = []
        for element in try mapping.optional("answers")?.sequence() ?? [] {
            answers.append(try answer(element))
        }
        var fallback = ScriptedAnswer(.approve)
        if let value = mapping.optional("default") { fallback = try answer(value) }
        return ScriptedUser(answers: answers, defaultAnswer: fallback)
    }

    static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first.properties.isLowercase || ("0"..."9").contains(first) else { return false }
        return id.count <= 63 && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func isValidUDID(_ udid: String) -> Bool {
        let hex = Set("0123456789ABCDEF")
        if udid.count == 40 { return udid.allSatisfy(hex.contains) }
        let parts = udid.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 8 && parts[1].count == 16 && parts.joined().allSatisfy(hex.contains)
    }

    /// A stable 40-hex-digit UDID for a device that does not declare one.
    static func derivedUDID(_ id: String) -> String {
        let digest = Insecure.SHA1.hash(data: Data("keychainlab-device:\(id)".utf8))
        return digest.map { String(format: "%02X", $0) }.joined()
    }
}
