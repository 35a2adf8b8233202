import Foundation
public import Hummingbird
import NIOCore

/// `GET /events`: the feed as server-sent events (the WHATWG HTML standard's `text/event-stream`).
/// First a `retry:` field (how long a browser waits before it reconnects), then each kept decision
/// after the one the browser names (`Last-Event-ID`, which EventSource sends when it reconnects,
/// or `?after=N`), then each new one as it comes, as
///
///     id: 42
///     event: decision
///     data: {"app":"com.example.AppOne","call":"SecItemAdd",…}
///
/// with a comment line (`: ping`) after 15 seconds of silence, so that a proxy keeps the
/// connection and a closed one is noticed. A stream ends after ``longest`` (the browser comes
/// back at once, where it left off) or when the console stops.
public struct DecisionStream: Sendable {
    /// The feed streamed.
    public let feed: DecisionFeed
    /// Which decisions the reader asked for.
    public let filter: DecisionFilter
    /// The last event the reader has.
    public let after: Int64
    /// How an event's decision is written (device names from the world).
    public let rows: DecisionRows

    /// How long a browser waits before reconnecting, in milliseconds.
    public static let retry = 2000
    /// How often the stream looks at the feed.
    static let interval = Duration.milliseconds(200)
    /// The silence after which a ping is sent.
    static let ping = Duration.seconds(15)
    /// How long one stream lasts.
    static let longest = Duration.seconds(300)

    /// A stream of `feed` for a reader holding events up to `after`.
    public init(feed: DecisionFeed, filter: DecisionFilter, after: Int64, rows: DecisionRows) {
        self.feed = feed
        self.filter = filter
        self.after = after
        self.rows = rows
    }

    /// The event id a reader holds: `Last-Event-ID`, else `after=`, else 0; a value that is not a
    /// number of 0 or more counts as 0 (everything the feed holds).
    public static func position(lastEventID: String?, after: String?) -> Int64 {
        for text in [lastEventID, after] {
            if let text, let number = Int64(text.trimmingCharacters(in: .whitespaces)), number >= 0 { return number }
        }
        return 0
    }

    /// One event's text.
    public func text(_ event: DecisionFeed.Event) -> String {
        // JSON of one line: a newline inside a field would end the `data:` line.
        "id: \(event.id)\nevent: decision\ndata: \(rows.json(event))\n\n"
    }

    /// The answer: 200, `text/event-stream`, streamed until the reader leaves.
    public var response: Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody { [self] writer in
                try await write(to: &writer)
                try await writer.finish(nil)
            }
        )
    }

    private func write(to writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(string: "retry: \(Self.retry)\n\n"))
        let started = ContinuousClock.now
        var last = after
        var spoke = ContinuousClock.now
        // What the feed holds is sent first, even when it is closing; then what comes, until then.
        while true {
            let closed = await feed.isClosed
            let (events, latest) = await feed.read(after: last, matching: filter)
            if let newest = events.last {
                try await writer.write(ByteBuffer(string: events.map(text).joined()))
                last = newest.id
                spoke = .now
            } else {
                // What the filter hides still moves the reader on.
                if last <= latest { last = latest }
                if ContinuousClock.now - spoke >= Self.ping {
                    try await writer.write(ByteBuffer(string: ": ping\n\n"))
                    spoke = .now
                }
            }
            guard !closed, !Task.isCancelled, ContinuousClock.now - started < Self.longest else { return }
            try? await Task.sleep(for: Self.interval)
        }
    }
}
