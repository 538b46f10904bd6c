// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Hummingbird
import NIOCore
import Synchronization

/// The service's request context: Hummingbird's basics and the connection, so a handler can
/// learn that its client went away.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Which connections are open, and what to do when one closes: a queued or running render
/// whose client is gone is abandoned (its slot and memory go to someone who is still waiting).
/// A client that closes its sending side is taken as gone, as nginx does; HTTP clients wait
/// for the answer with the connection open.
///
/// It also bounds them: past `limit` open connections a new one is closed before a byte of it
/// is read. NIO holds a read buffer per connection (up to ~370 KB while a client floods a body
/// the service has not asked for yet), outside the body budget; the limit bounds that memory.
final class ClientWatch: Sendable {
    private struct Entry {
        var gone = false
        var onGone: [@Sendable () -> Void] = []
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    /// Connections open at once, at most.
    let limit: Int
    private let refused: @Sendable () -> Void

    /// A watch admitting `limit` connections; `refused` counts each one turned away.
    init(limit: Int = .max, refused: @escaping @Sendable () -> Void = {}) {
        self.limit = max(1, limit)
        self.refused = refused
    }

    /// Runs `action` when the client of `channel` goes away (at once if it already has);
    /// nothing for a connection the watch does not know (tests without sockets).
    func whenGone(_ channel: any Channel, _ action: @escaping @Sendable () -> Void) {
        let key = ObjectIdentifier(channel)
        let now: Bool = entries.withLock { entries in
            guard var entry = entries[key] else { return false }
            if entry.gone { return true }
            entry.onGone.append(action)
            entries[key] = entry
            return false
        }
        if now { action() }
    }

    /// Forgets the actions of a request that was answered.
    func answered(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)]?.onGone = [] }
    }

    /// Admits a new connection; false when `limit` are open.
    fileprivate func opened(_ key: ObjectIdentifier) -> Bool {
        let admitted = entries.withLock { entries in
            guard entries.count < limit else { return false }
            entries[key] = Entry()
            return true
        }
        if !admitted { refused() }
        return admitted
    }

    fileprivate func gone(_ key: ObjectIdentifier, forget: Bool) {
        let actions: [@Sendable () -> Void] = entries.withLock { entries in
            let actions = entries[key]?.onGone ?? []
            if forget { entries[key] = nil } else { entries[key] = Entry(gone: true) }
            return actions
        }
        for action in actions { action() }
    }

    /// The pipeline's end of the watch: one per connection.
    func handler() -> any RemovableChannelHandler { Handler(watch: self) }

    private final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        // Reads pass through untouched (the protocol's default forwards them).
        typealias InboundIn = NIOAny
        let watch: ClientWatch

        init(watch: ClientWatch) { self.watch = watch }

        func handlerAdded(context: ChannelHandlerContext) {
            if !watch.opened(ObjectIdentifier(context.channel)) { context.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) { watch.gone(ObjectIdentifier(context.channel), forget: true) }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .inputClosed = event as? ChannelEvent { watch.gone(ObjectIdentifier(context.channel), forget: false) }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            watch.gone(ObjectIdentifier(context.channel), forget: true)
            context.fireChannelInactive()
        }
    }
}
#endif
