public import CMSSupport
public import Foundation

/// What one request for a site's file gave.
public struct FetchAttempt: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// An HTTP answer; `body` holds at most one byte more than the size limit (`truncated` then).
        case response(status: Int, contentType: String?, location: String?, body: Data, truncated: Bool)
        /// The TLS handshake failed: the certificate is not valid for the host or not trusted.
        case untrustedServer(String)
        /// No answer in time.
        case timeout
        /// No connection (refused, reset, no such host).
        case unreachable(String)
    }

    public let url: String
    public let outcome: Outcome
    /// What the transport noticed without refusing the answer (an unclean TLS close).
    public let warnings: [String]

    public init(url: String, outcome: Outcome, warnings: [String] = []) {
        self.url = url
        self.outcome = outcome
        self.warnings = warnings
    }
}

/// A site's verdict for a service (and an app), as a device reaches it (spec associations.md b).
public struct SiteReport: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// The file names the app for the service.
        case approved
        /// The file is refused, or does not name the app: only a new install fetches again.
        case denied
        /// A server error or a timeout: retried later.
        case pending
    }

    public var verdict: Verdict
    /// The URL whose answer decided.
    public var url: String
    public var checks: [Check]
    /// The app IDs each service of the file names.
    public var services: [String: [String]]
    /// The file, when one was read.
    public var file: AssociationFile?
    /// Whether the answer came from Apple's CDN (its copy, or its refusal) rather than the site.
    public var throughCDN: Bool

    public init(
        verdict: Verdict,
        url: String,
        checks: [Check],
        services: [String: [String]],
        file: AssociationFile? = nil,
        throughCDN: Bool = false
    ) {
        self.verdict = verdict
        self.url = url
        self.checks = checks
        self.services = services
        self.file = file
        self.throughCDN = throughCDN
    }
}

/// Applies the fetching and file rules to what was fetched; one implementation for associationd
/// and `kclab aasa check`.
public struct SiteEvaluator: Sendable {
    /// The host the file is for (the name the signer's certificate must carry).
    public let host: String
    /// The roots a signed file's signer must chain to.
    public let trust: TrustStore
    /// When signatures and certificates are checked.
    public let now: Date
    /// The device's iOS release (macOS as its iOS equivalent): iOS 8 reads signed files only
    /// (spec b.2); iOS 12 and earlier read applinks' `appID` and `paths` only.
    public let era: Int
    /// iOS 8 reads signed files only.
    public var requiresSignature: Bool { era < 9 }

    public init(host: String, trust: TrustStore, now: Date, era: Int = 17) {
        self.host = host
        self.trust = trust
        self.now = now
        self.era = era
    }

    /// Whether `attempt` should be followed by the next location (the root path): an HTTP
    /// refusal of `.well-known` is; a server error, a timeout or an untrusted server is not.
    public static func triesNextLocation(after attempt: FetchAttempt) -> Bool {
        if case .response(let status, _, _, _, _) = attempt.outcome { return (300..<500).contains(status) }
        return false
    }

    /// The verdict for a local copy of the file judged as if the site served it at `url`: 200,
    /// typed by its first byte (DER is signed), cut at the limit as a fetch would cut it; the
    /// transport rules do not apply. `kclab aasa check --file` and `kclab site check --aasa-file`.
    public func evaluateLocal(_ body: Data, url: String, service: AssociationService, appID: String?) -> SiteReport {
        let attempt = FetchAttempt(
            url: url,
            outcome: .response(
                status: 200,
                contentType: body.first == 0x30 ? "application/pkcs7-mime" : "application/json",
                location: nil,
                body: body.prefix(AssociationFile.maximumSize + 1),
                truncated: body.count > AssociationFile.maximumSize
            )
        )
        var report = evaluate([attempt], service: service, appID: appID)
        report.checks = report.checks.map { $0.forLocalFile() }
        return report
    }

    /// The verdict for `service` and, when given, `appID`, from the attempts in the order made.
    public func evaluate(_ attempts: [FetchAttempt], service: AssociationService, appID: String?) -> SiteReport {
        var checks: [Check] = []
        var report = SiteReport(verdict: .denied, url: attempts.last?.url ?? "", checks: [], services: [:])
        var served: (url: String, contentType: String?, body: Data, truncated: Bool)? = nil
        var verdict = SiteReport.Verdict.denied
        for attempt in attempts {
            report.url = attempt.url
            switch attempt.outcome {
            case .untrustedServer(let reason):
                checks.append(.fail(.httpsTrust, "\(attempt.url): the server's certificate is not valid for \(host) or not trusted: \(reason)"))
                verdict = .denied
            case .timeout:
                checks.append(.fail(.timeout, "\(attempt.url): no answer in time; the site stays pending and is retried"))
                verdict = .pending
            case .unreachable(let reason):
                checks.append(.fail(.reachable, "\(attempt.url): \(reason); the site stays pending and is retried"))
                verdict = .pending
            case .response(let status, let contentType, let location, let body, let truncated):
                switch status {
                case 200:
                    checks.append(.pass(.httpStatus, "\(attempt.url): 200"))
                    checks += attempt.warnings.map { .warn(.transport, "\(attempt.url): \($0)") }
                    served = (attempt.url, contentType, body, truncated)
                case 300..<400:
                    let downgrade = location?.lowercased().hasPrefix("http:") == true ? " (to plain http)" : ""
                    checks.append(
                        .fail(.noRedirects, "\(attempt.url): \(status) redirect to \(location ?? "?")\(downgrade); devices follow no redirect")
                    )
                    verdict = .denied
                case 400..<500:
                    checks.append(.fail(.httpStatus, "\(attempt.url): \(status); 300–499 deny the site"))
                    verdict = .denied
                default:
                    checks.append(.fail(.httpStatus, "\(attempt.url): \(status); 500–599 leave the site pending, retried every 3 hours"))
                    verdict = .pending
                }
            }
            if served != nil { break }
        }
        guard let served else {
            report.verdict = verdict
            report.checks = checks
            return report
        }
        checks.append(.pass(.httpsTrust, "the server's certificate is valid for \(host)"))
        guard !served.truncated else {
            checks.append(.fail(.sizeLimit, "the file is larger than 131,072 bytes (128 KB), the most a device reads"))
            report.checks = checks
            return report
        }
        checks.append(.pass(.sizeLimit, "\(served.body.count) bytes, within 131,072"))
        guard let json = content(of: served.body, contentType: served.contentType, checks: &checks) else {
            report.checks = checks
            return report
        }
        let reading = AssociationFile.read(json)
        checks += reading.checks
        guard let file = reading.file, !reading.failed else {
            report.checks = checks
            return report
        }
        report.file = file
        for service in AssociationService.allCases where service != .authsrv {
            if file.apps[service] != nil || (service == .applinks && file.appLinks != nil) {
                report.services[service.rawValue] = file.appIDs(for: service, era: era)
            }
        }
        let listed = file.appIDs(for: service, era: era)
        if let appID {
            if listed.contains(appID) {
                checks.append(.pass(.appListed, "\(service.rawValue) lists \(appID)"))
                report.verdict = .approved
            } else {
                let near = listed.first { $0.caseInsensitiveCompare(appID) == .orderedSame || $0.hasSuffix("." + appID) }
                let hint = near.map { " (it lists '\($0)': app IDs match exactly, prefix and case included)" } ?? ""
                checks.append(.fail(.appListed, "\(service.rawValue) does not list \(appID)\(hint)"))
            }
        } else if listed.isEmpty {
            checks.append(.fail(.servicePresent, "the file associates no app for \(service.rawValue)"))
        } else {
            checks.append(.pass(.servicePresent, "\(service.rawValue) lists \(listed.count) app\(listed.count == 1 ? "" : "s")"))
            report.verdict = .approved
        }
        report.checks = checks
        return report
    }

    /// The file's JSON: the body itself, or a signed file's verified content. A body that starts
    /// as DER does, or is served as `application/pkcs7-mime`, is read as a signed file.
    private func content(of body: Data, contentType: String?, checks: inout [Check]) -> Data? {
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if body.first == 0x30 || type == "application/pkcs7-mime" {
            if type != "application/pkcs7-mime" {
                checks.append(.warn(.contentType, "a signed file served as \(type ?? "no type"); Apple documented application/pkcs7-mime"))
            } else {
                checks.append(.pass(.contentType, "application/pkcs7-mime"))
            }
            let message: SignedMessage
            do {
                message = try SignedMessage(der: body)
            } catch {
                checks.append(.fail(.signature, "the signed file does not verify: \(error)"))
                return nil
            }
            let intermediates = message.certificates.filter { $0 != message.signerCertificate }
            switch trust.evaluate(message.signerCertificate, intermediates: intermediates, at: now, purpose: .tlsServer(host: host)) {
            case .trusted:
                checks.append(.pass(.signature, "signed by a certificate valid for \(host), in date, chaining to a trusted root"))
                return message.content
            case .untrusted(let reason):
                checks.append(.fail(.signature, "the signer's certificate is not good for \(host): \(reason)"))
                return nil
            }
        }
        if requiresSignature {
            checks.append(.fail(.signedFileRequired, "iOS 8 reads only files signed with the site's TLS certificate (application/pkcs7-mime)"))
            return nil
        }
        if type != "application/json" {
            checks.append(.warn(.contentType, "served as \(type ?? "no type"); Apple documents application/json"))
        } else {
            checks.append(.pass(.contentType, "application/json"))
        }
        return body
    }
}
