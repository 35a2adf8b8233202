public import Foundation

/// How a statement list was served, judged by Google's hosting rules (200 only, no redirect,
/// `Content-Type: application/json`, a valid certificate) and Android's (1 MiB, HTTPS): each
/// failure carries Google's error code.
public enum StatementListFetch: Sendable, Hashable {
    /// An HTTP answer; `body` holds at most one byte past ``StatementList/maximumSize`` (`truncated` then).
    case response(status: Int, contentType: String?, location: String?, body: Data, truncated: Bool)
    /// The TLS handshake failed: the certificate is not valid for the host or not trusted.
    case untrusted(String)
    case timeout
    case unreachable(String)

    /// The transport rules, not applicable to a local file judged as `url` would be.
    public static func localFile(url: String) -> [AssetLinksFinding] {
        [AssetLinksFinding.Rule.https, .httpStatus, .noRedirects, .contentType, .reachable].map {
            AssetLinksFinding($0, .notApplicable, "a local file was judged as \(url); nothing was fetched")
        }
    }

    /// The findings on how `url` was served, and the body to read when it can be read.
    public func judged(url: String) -> (findings: [AssetLinksFinding], body: Data?) {
        switch self {
        case .untrusted(let reason):
            return ([AssetLinksFinding(.https, .fail, "\(url): the server's certificate is not valid: \(reason)", code: .failedSSLValidation)], nil)
        case .timeout:
            return ([AssetLinksFinding(.reachable, .fail, "\(url): no answer in time (Android gives up after 5 s)", code: .fetchError)], nil)
        case .unreachable(let reason):
            return ([AssetLinksFinding(.reachable, .fail, "\(url): \(reason)", code: .fetchError)], nil)
        case .response(let status, let contentType, let location, let body, let truncated):
            var findings = [AssetLinksFinding(.https, .pass, "\(url): a valid certificate")]
            if (300..<400).contains(status) {
                let target = location.map { " to \($0)" } ?? ""
                findings.append(
                    AssetLinksFinding(
                        .noRedirects,
                        .fail,
                        "\(url) answered \(status)\(target): no redirect is followed (Android: FAILURE_REDIRECT); serve the file from this host",
                        code: .redirect
                    )
                )
                return (findings, nil)
            }
            guard status == 200 else {
                findings.append(AssetLinksFinding(.httpStatus, .fail, "\(url) answered \(status); only 200 is read", code: .fetchError))
                return (findings, nil)
            }
            findings.append(AssetLinksFinding(.httpStatus, .pass, "200"))
            let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if type == "application/json" {
                findings.append(AssetLinksFinding(.contentType, .pass, "application/json"))
            } else {
                findings.append(
                    AssetLinksFinding(
                        .contentType,
                        .fail,
                        "\(url) is served as \(contentType ?? "no type"): Google's API wants application/json (Android does not check)",
                        code: .wrongContentType
                    )
                )
            }
            guard !truncated else {
                findings.append(AssetLinksFinding(.sizeLimit, .fail, "\(url) is more than 1 MiB, Android's limit", code: .tooLarge))
                return (findings, nil)
            }
            return (findings, body)
        }
    }
}
