import Glibc

/// A thread of its own for `body`, joined by `join()`. For work that must not
/// hold up the engine's loop: a file decoded ahead, a connection that may
/// never answer.
// Invariant: only the thread that made it calls join(), so `thread` and `joined` have one user.
public final class SystemThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    /// Nil when the system would not make another thread.
    public init?(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body))
        let made = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        if made != 0 {
            box.release()
            return nil
        }
    }

    /// Waits for `body` to return. Once; later calls return at once.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    fileprivate final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

extension SystemThread {
    /// Runs `body` on a thread no one joins (it ends when `body` returns);
    /// false when the system would not make another thread.
    public static func detached(_ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let made = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        if made != 0 { box.release() }
        return made == 0
    }
}
