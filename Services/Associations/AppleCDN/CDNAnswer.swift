public import Foundation
public import SiteAssociation

/// What the Apple-like CDN answers for a domain (spec associations.md b.3): the origin's file with
/// `Apple-Origin-Format`, or a 404 saying why, with `Apple-Try-Direct: true`.
public struct CDNAnswer: Sendable, Hashable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data
    /// How long the answer is cached, in seconds.
    public let maxAge: Int

    /// How long a file is cached: six hours, as `Cache-Control: max-age=21600` says.
    public static let successMaxAge = 21_600
    /// How long a failure is cached: an hour.
    public static let failureMaxAge = 3_600

    /// The answer for what the CDN's bot fetched from the origin (`.well-known`, then the root).
    /// The CDN relays a file, JSON or signed, without judging its content: devices do that.
    public static func from(_ attempts: [FetchAttempt], successMaxAge: Int = successMaxAge) -> CDNAnswer {
        guard let last = attempts.last else { return failure("SWCERR00302 Connection Failed", details: "no request was made") }
        switch last.outcome {
        case .response(let status, _, let location, let body, let truncated):
            if status == 200 {
                if truncated { return failure("SWCERR00401 Too Large", details: "\(last.url) is larger than 131072 bytes") }
                let format = body.first == 0x30 ? "pkcs7" : "json"
                return CDNAnswer(
                    status: 200,
                    headers: [
                        "Content-Type": format == "json" ? "application/json" : "application/pkcs7-mime",
                        "Apple-Origin-Format": format,
                        "Cache-Control": "max-age=\(successMaxAge)",
                    ],
                    body: body,
                    maxAge: successMaxAge
                )
            }
            let redirect = location.map { " to \($0)" } ?? ""
            return failure("SWCERR00101 Bad HTTP Response: \(status) \(reasonPhrase(status))", details: "\(last.url) answered \(status)\(redirect)")
        case .timeout:
            return failure("SWCERR00301 Timeout", details: "\(last.url) did not answer in time")
        case .untrustedServer(let reason):
            return failure("SWCERR00201 Bad Server Trust", details: "\(last.url): \(reason)")
        case .unreachable(let reason):
            return failure("SWCERR00302 Connection Failed", details: "\(last.url): \(reason)")
        }
    }

    static func failure(_ reason: String, details: String) -> CDNAnswer {
        CDNAnswer(
            status: 404,
            headers: [
                "Content-Type": "text/plain; charset=utf-8",
                "Apple-Failure-Reason": reason,
                "Apple-Failure-Details": details,
                "Apple-Try-Direct": "true",
                "Cache-Control": "max-age=\(failureMaxAge)",
            ],
            body: Data("Not Found\n".utf8),
            maxAge: failureMaxAge
        )
    }

    static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect", 308: "Permanent Redirect",
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? "Status \(status)"
    }
}
