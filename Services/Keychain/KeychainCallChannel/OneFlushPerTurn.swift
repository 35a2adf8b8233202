public import NIOCore

/// Flushes a channel once per turn of its event loop, however many frames the turn wrote: calls
/// (or answers) that leave together share one system call. Used on the channel's event loop only.
public final class OneFlushPerTurn {
    private var scheduled = false

    public init() {}

    /// Flushes `context` at the end of this turn, unless a flush is already due then.
    public func flush(_ context: ChannelHandlerContext) {
        guard !scheduled else { return }
        scheduled = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (flusher, context) = bound.value
            flusher.scheduled = false
            context.flush()
        }
    }
}
