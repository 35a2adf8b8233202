public import Foundation

/// The CDN's copies: each domain's answer is kept for its max-age and served to every device
/// meanwhile, however the site's file changes. There is no way to purge it, as with Apple's;
/// only time (the injected clock) makes a copy stale.
public actor CDNCache {
    public struct Entry: Sendable {
        public let answer: CDNAnswer
        public let fetchedAt: Date
    }

    private var entries: [String: Entry] = [:]
    private let clock: @Sendable () -> Date
    private let origin: @Sendable (String) async -> CDNAnswer

    /// - Parameters:
    ///   - clock: the time; tests move it on.
    ///   - origin: fetches a domain's file from the site and makes the answer.
    public init(clock: @escaping @Sendable () -> Date = { Date() }, origin: @escaping @Sendable (String) async -> CDNAnswer) {
        self.clock = clock
        self.origin = origin
    }

    /// The answer for `domain` and its age in seconds: the cached copy while fresh, else a new fetch.
    public func answer(for domain: String) async -> (answer: CDNAnswer, age: Int) {
        let now = clock()
        if let entry = entries[domain], now.timeIntervalSince(entry.fetchedAt) < Double(entry.answer.maxAge) {
            return (entry.answer, Int(now.timeIntervalSince(entry.fetchedAt)))
        }
        let answer = await origin(domain)
        entries[domain] = Entry(answer: answer, fetchedAt: clock())
        return (answer, 0)
    }
}
