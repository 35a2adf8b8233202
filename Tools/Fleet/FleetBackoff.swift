/// The pauses a fleet device takes between failed attempts at one thing: doubling from `first`
/// to at most `longest`, each drawn between half and one and a half times its value (jitter, so
/// that devices that failed together do not come back together), and back to `first` once an
/// attempt works. Without it, ten thousand devices whose calls timed out on a saturated machine
/// all reconnected a second later, and each new connection's TLS handshake kept it saturated.
struct FleetBackoff: Sendable {
    let first: Duration
    let longest: Duration
    private var current: Duration

    init(first: Duration, longest: Duration) {
        precondition(first > .zero && longest >= first, "a backoff needs 0 < first <= longest")
        self.first = first
        self.longest = longest
        current = first
    }

    /// The pause to take after a failure; the next one is twice as long, up to `longest`.
    mutating func pause() -> Duration {
        let pause = current * Double.random(in: 0.5...1.5)
        current = min(current * 2, longest)
        return pause
    }

    /// After an attempt that worked: the next failure pauses `first` again.
    mutating func reset() {
        current = first
    }
}
