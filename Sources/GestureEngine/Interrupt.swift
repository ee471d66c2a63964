import Glibc
import GestureSystem

/// Ctrl-C for commands that run until stopped (`record` from a device): the
/// handler only sets a flag; the loop notices it and finishes the file cleanly.
public enum Interrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    public static var requested: Bool { flag != 0 }

    public static func install() {
        signal(SIGINT) { _ in Interrupt.flag = 1 }
        signal(SIGTERM) { _ in Interrupt.flag = 1 }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// `run` stops where SIGTERM or SIGINT tell it to (systemd's stop, Ctrl-C),
/// whatever its parent left blocked: a signal mask is inherited, and a test
/// runner or a shell may have blocked them.
public enum StopSignals {
    public static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGTERM, SIGINT, SIGQUIT] {
            signal(number, SIG_DFL)
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    nonisolated(unsafe) private static var received: sig_atomic_t = 0
    /// Readable once a stop was asked for; kept for the whole process.
    nonisolated(unsafe) private(set) static var wakeup: Wakeup?
    /// The wakeup's writing end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// Seconds a run has to stop cleanly before the signal takes it as it is.
    static let grace: UInt32 = 3

    /// `run`: the first SIGTERM or SIGINT asks the run to stop as its input's
    /// end would (what its rules hold down is released, its output flushed),
    /// then it dies of that signal, as a service manager expects. A second
    /// one, or `grace` seconds without stopping, kills it at once, as before.
    public static func stopGracefully() {
        unblock()
        guard let made = Wakeup() else { return }
        wakeup = made
        writeEnd = made.writeEnd
        let asked: @convention(c) (Int32) -> Void = { number in
            if StopSignals.received == 0 { StopSignals.received = number }
            // The next one is not waited for; nor is a stop that does not come.
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
            alarm(StopSignals.grace)
            Wakeup.signal(writeEnd: StopSignals.writeEnd)
        }
        signal(SIGTERM, asked)
        signal(SIGINT, asked)
        signal(SIGALRM) { _ in
            let number = StopSignals.received == 0 ? SIGTERM : StopSignals.received
            signal(number, SIG_DFL)
            raise(number)
        }
    }

    /// Whether a stop was asked for.
    public static var requested: Bool { received != 0 }

    /// After the run stopped cleanly: dies of the signal that asked, as the
    /// run would have without the clean stop.
    public static func finish() {
        guard received != 0 else { return }
        let number = received
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
    }
}

/// SIGHUP, the daemon convention for "reload your configuration": the handler
/// makes a wakeup the event loop polls readable (the self-pipe trick).
enum HangupSignal {
    nonisolated(unsafe) private static var wakeup: Wakeup?
    /// The wakeup's writing end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// The descriptor that becomes readable on SIGHUP; -1 when it cannot be set up.
    static func install() -> Int32 {
        if let wakeup { return wakeup.fd }
        guard let made = Wakeup() else { return -1 }
        wakeup = made
        writeEnd = made.writeEnd
        signal(SIGHUP) { _ in Wakeup.signal(writeEnd: HangupSignal.writeEnd) }
        // A parent may have started us with SIGHUP blocked (it is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return made.fd
    }

    /// Empties the pipe; true when a SIGHUP had arrived.
    static func drain() -> Bool {
        wakeup?.drain() ?? false
    }
}
