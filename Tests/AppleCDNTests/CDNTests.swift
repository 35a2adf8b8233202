import AppleCDN
import Foundation
import SiteAssociation
import Synchronization
import Testing

/// The Apple-like CDN: what it answers (spec associations.md b.3) and how long it keeps a copy,
/// proven with a clock the test moves.
@Suite struct CDNTests {
    static let url = "https://example.com/.well-known/apple-app-site-association"

    static func attempt(_ outcome: FetchAttempt.Outcome) -> [FetchAttempt] { [FetchAttempt(url: url, outcome: outcome)] }

    @Test func relaysTheOriginsFile() {
        let body = Data(#"{"webcredentials":{"apps":["D3KQX62K1A.com.example.DemoApp"]}}"#.utf8)
        let answer = CDNAnswer.from(Self.attempt(.response(status: 200, contentType: "text/plain", location: nil, body: body, truncated: false)))
        #expect(answer.status == 200 && answer.body == body)
        #expect(answer.headers["Apple-Origin-Format"] == "json")
        #expect(answer.headers["Cache-Control"] == "max-age=21600")
        let signed = CDNAnswer.from(
            Self.attempt(.response(status: 200, contentType: nil, location: nil, body: Data([0x30, 0x80]), truncated: false))
        )
        #expect(signed.headers["Apple-Origin-Format"] == "pkcs7")
    }

    @Test(
        arguments: [
            (
                FetchAttempt.Outcome.response(status: 403, contentType: nil, location: nil, body: Data(), truncated: false),
                "SWCERR00101 Bad HTTP Response: 403 Forbidden"
            ),
            (
                .response(status: 301, contentType: nil, location: "https://www.example.com/", body: Data(), truncated: false),
                "SWCERR00101 Bad HTTP Response: 301 Moved Permanently"
            ),
            (
                .response(status: 503, contentType: nil, location: nil, body: Data(), truncated: false),
                "SWCERR00101 Bad HTTP Response: 503 Service Unavailable"
            ),
            (.timeout, "SWCERR00301 Timeout"),
            (.untrustedServer("expired"), "SWCERR00201 Bad Server Trust"),
            (.response(status: 200, contentType: nil, location: nil, body: Data(count: 131_073), truncated: true), "SWCERR00401 Too Large"),
        ]
    )
    func failuresSayWhyAndSendDevicesDirect(outcome: FetchAttempt.Outcome, reason: String) {
        let answer = CDNAnswer.from(Self.attempt(outcome))
        #expect(answer.status == 404)
        #expect(answer.headers["Apple-Failure-Reason"] == reason)
        #expect(answer.headers["Apple-Try-Direct"] == "true")
        #expect(answer.headers["Cache-Control"] == "max-age=3600")
        #expect(answer.headers["Apple-Failure-Details"]?.isEmpty == false)
    }

    @Test func keepsACopyForSixHoursWhateverTheSiteDoes() async {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let version = Mutex(1)
        let fetches = Mutex(0)
        let cache = CDNCache(
            clock: { now.withLock { $0 } },
            origin: { _ in
                fetches.withLock { $0 += 1 }
                let body = Data("{\"version\":\(version.withLock { $0 })}".utf8)
                return CDNAnswer.from(
                    Self.attempt(.response(status: 200, contentType: "application/json", location: nil, body: body, truncated: false))
                )
            }
        )
        let first = await cache.answer(for: "example.com")
        #expect(first.age == 0 && fetches.withLock { $0 } == 1)

        version.withLock { $0 = 2 }  // the site changes its file
        now.withLock { $0 += 3 * 3600 }
        let cached = await cache.answer(for: "example.com")
        #expect(cached.answer.body == first.answer.body, "devices still get the old copy")
        #expect(cached.age == 3 * 3600 && fetches.withLock { $0 } == 1)

        now.withLock { $0 += 3 * 3600 }
        let fresh = await cache.answer(for: "example.com")
        #expect(fresh.age == 0 && fetches.withLock { $0 } == 2)
        #expect(String(decoding: fresh.answer.body, as: UTF8.self).contains("2"))
        _ = await cache.answer(for: "other.example")
        #expect(fetches.withLock { $0 } == 3, "each domain has its own copy")
    }

    @Test func keepsAFailureForAnHour() async {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let fetches = Mutex(0)
        let cache = CDNCache(
            clock: { now.withLock { $0 } },
            origin: { _ in
                fetches.withLock { $0 += 1 }
                return CDNAnswer.from(Self.attempt(.timeout))
            }
        )
        _ = await cache.answer(for: "example.com")
        now.withLock { $0 += 3599 }
        _ = await cache.answer(for: "example.com")
        #expect(fetches.withLock { $0 } == 1)
        now.withLock { $0 += 2 }
        _ = await cache.answer(for: "example.com")
        #expect(fetches.withLock { $0 } == 2)
    }
}
