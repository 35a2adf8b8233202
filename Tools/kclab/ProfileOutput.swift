import AppIdentity
import Foundation

/// `kclab profile show`'s text: the fields a person checks first, then the certificates and the
/// verdict.
enum ProfileText {
    static func lines(_ inspection: ProfileInspection) -> [String] {
        let profile = inspection.profile
        var lines = [
            "name: \(profile.name)",
            "app ID name: \(profile.appIDName)",
            "application identifier: \(profile.entitlements.applicationIdentifier ?? "-")",
            "team: \(profile.teamIdentifiers.map(\.rawValue).joined(separator: ", ")) (\(profile.teamName))",
            "app ID prefix: \(profile.applicationIdentifierPrefixes.map(\.rawValue).joined(separator: ", "))",
            "platform: \(profile.platforms.joined(separator: ", "))",
            "kind: \(kind(profile))",
            "created: \(profile.creationDate.formatted(.iso8601)); expires: \(profile.expirationDate.formatted(.iso8601))",
            "UUID: \(profile.uuid)",
            "entitlements:",
        ]
        for (key, value) in profile.entitlements.values.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(key): \(text(value))")
        }
        if profile.provisionsAllDevices {
            lines.append(profile.method == .developerID ? "devices: all (Developer ID)" : "devices: all (enterprise)")
        } else if let devices = profile.provisionedDevices {
            lines.append("devices: \(devices.count)")
            lines += devices.map { "  \($0)" }
        } else {
            lines.append("devices: any (distribution)")
        }
        for (key, value) in profile.otherValues.sorted(by: { $0.key < $1.key }) {
            lines.append("\(key): \(brief(value))")
        }
        lines.append("developer certificates: \(inspection.developerCertificates.count)")
        for certificate in inspection.developerCertificates { lines += describe(certificate) }
        lines.append("signed by:")
        lines += describe(inspection.signer)
        lines.append("the envelope carries \(inspection.carried.count) certificates: \(inspection.carried.map(\.commonName).joined(separator: "; "))")
        return lines + inspection.verdict
    }

    static func kind(_ profile: ProvisioningProfile) -> String {
        switch profile.method {
        case .development: "development"
        case .adHoc: "ad hoc"
        case .enterprise: "enterprise (in-house): any device"
        case .appStore: "App Store"
        case .developerID: "Developer ID: any Mac"
        }
    }

    static func describe(_ certificate: CertificateSummary) -> [String] {
        [
            "  \(certificate.commonName)",
            "    serial \(certificate.serialNumber); valid \(certificate.notBefore.formatted(.iso8601)) to \(certificate.notAfter.formatted(.iso8601))",
            "    SHA-1 \(certificate.sha1)",
            "    SHA-256 \(certificate.sha256)",
        ]
    }

    /// A value as written, with data (such as `DER-Encoded-Profile`) given by its size.
    static func brief(_ value: PlistValue) -> String {
        if case .data(let data) = value { return "<\(data.count) bytes>" }
        return text(value)
    }

    static func text(_ value: PlistValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .date(let date): date.formatted(.iso8601)
        case .data(let data): data.base64EncodedString()
        case .array(let values): "[" + values.map(text).joined(separator: ", ") + "]"
        case .dictionary(let entries): "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}

/// `kclab profile show --json`: the profile's keys in lowerCamelCase, then the certificates and
/// the verdict.
enum ProfileJSON {
    struct Document: Encodable {
        var name: String
        var appIDName: String
        var teamIdentifier: [String]
        var teamName: String
        var applicationIdentifierPrefix: [String]
        var platform: [String]
        var entitlements: [String: PlistValue]
        var creationDate: Date
        var expirationDate: Date
        var uuid: String
        /// The profile's other keys, under their own names (`TimeToLive`, `IsXcodeManaged`, …).
        var otherKeys: [String: PlistValue]
        var provisionedDevices: [String]?
        var provisionsAllDevices: Bool
        var developerCertificates: [CertificateSummary]
        var signer: CertificateSummary
        var carriedCertificates: [CertificateSummary]
        var verdict: Verdict
    }

    struct Verdict: Encodable {
        var signatureValid: Bool
        /// `trusted`, `untrusted` or `not-checked`.
        var chain: String
        var chainReason: String?
        var trustedChain: [String]?
        var current: Bool
        var checkedAt: Date
    }

    static func text(_ inspection: ProfileInspection) throws -> String {
        let profile = inspection.profile
        var verdict = Verdict(
            signatureValid: inspection.signatureValid,
            chain: "not-checked",
            current: inspection.isCurrent,
            checkedAt: inspection.date
        )
        switch inspection.trust {
        case .notChecked: break
        case .trusted(let chain):
            verdict.chain = "trusted"
            verdict.trustedChain = chain.map(\.commonName)
        case .untrusted(let reason):
            verdict.chain = "untrusted"
            verdict.chainReason = reason
        }
        let document = Document(
            name: profile.name,
            appIDName: profile.appIDName,
            teamIdentifier: profile.teamIdentifiers.map(\.rawValue),
            teamName: profile.teamName,
            applicationIdentifierPrefix: profile.applicationIdentifierPrefixes.map(\.rawValue),
            platform: profile.platforms,
            entitlements: profile.entitlements.values,
            creationDate: profile.creationDate,
            expirationDate: profile.expirationDate,
            uuid: profile.uuid,
            otherKeys: profile.otherValues,
            provisionedDevices: profile.provisionedDevices,
            provisionsAllDevices: profile.provisionsAllDevices,
            developerCertificates: inspection.developerCertificates,
            signer: inspection.signer,
            carriedCertificates: inspection.carried,
            verdict: verdict
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}
