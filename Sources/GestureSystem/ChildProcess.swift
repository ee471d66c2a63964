import Glibc
import CSpawn

/// A program this process started in a process group of its own. Its exit is
/// waited for on a pidfd, in poll() beside other descriptors: no sleeping and
/// no SIGCHLD handler. Stopping it stops its whole group, and it is always
/// reaped, so no zombie is left.
public final class ChildProcess {
    public let pid: pid_t
    /// Readable once the child has exited; -1 where the kernel has no
    /// pidfd_open (before Linux 5.3): waits then look every `fallbackLook`.
    public let exitDescriptor: Int32
    /// The raw wait status once reaped; nil while it runs.
    public private(set) var status: Int32?
    public private(set) var isReaped = false

    /// How often a wait looks for the exit without a pidfd.
    public static let fallbackLook = 0.005

    public init(pid: pid_t) {
        self.pid = pid
        exitDescriptor = gm_pidfd_open(pid)
    }

    deinit {
        if exitDescriptor >= 0 { close(exitDescriptor) }
    }

    /// Takes its exit if it has come, never waiting; true once it is reaped.
    @discardableResult
    public func reap() -> Bool {
        guard !isReaped else { return true }
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &raw, WNOHANG) } while reaped < 0 && errno == EINTR
        if reaped == pid {
            status = raw
            isReaped = true
        } else if reaped < 0 && errno == ECHILD {
            // Nothing of it is left to wait for.
            isReaped = true
        }
        return isReaped
    }

    /// Its exit code when it exited by itself; nil when a signal ended it or it runs.
    public var exitCode: Int32? {
        guard let status, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// Waits for it to exit, up to `deadline` on the monotonic clock; true once reaped.
    @discardableResult
    public func wait(until deadline: Double) -> Bool {
        while !reap() {
            guard ChildProcess.waitForExit(of: [self], or: [], until: deadline) else { return false }
        }
        return true
    }

    /// Sends `signal` to its process group: itself and all it started there.
    public func signalGroup(_ signal: Int32) {
        _ = Glibc.kill(-pid, signal)
    }

    /// Kills the whole group, then reaps the child, waiting at most `grace`
    /// seconds for the kernel to take it down; true once reaped. A child
    /// stuck in the kernel (not even SIGKILL ends it) is left to init.
    @discardableResult
    public func kill(grace: Double) -> Bool {
        // Whatever it started may outlive it in the group: the group goes either way.
        signalGroup(SIGKILL)
        return wait(until: MonotonicClock.now() + grace)
    }

    /// Stops the group gently: SIGTERM, `grace` seconds to exit, then SIGKILL
    /// and `grace` more; true once reaped.
    @discardableResult
    public func stop(grace: Double) -> Bool {
        if reap() { return true }
        signalGroup(SIGTERM)
        if wait(until: MonotonicClock.now() + grace) { return true }
        return kill(grace: grace)
    }

    /// Waits until any of `children` has exited or any of `descriptors` is
    /// readable, up to `deadline`; false once the deadline has passed. Without
    /// pidfds it returns every `fallbackLook` for the caller to reap.
    public static func waitForExit(of children: [ChildProcess], or descriptors: [Int32], until deadline: Double) -> Bool {
        let left = deadline - MonotonicClock.now()
        guard left > 0 else { return false }
        let waiting = children.filter { !$0.isReaped }
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        fds += waiting.filter { $0.exitDescriptor >= 0 }.map { pollfd(fd: $0.exitDescriptor, events: Int16(POLLIN), revents: 0) }
        let blind = waiting.contains { $0.exitDescriptor < 0 }
        let timeout = PollTimeout.milliseconds(blind ? min(left, fallbackLook) : left)
        _ = poll(&fds, nfds_t(fds.count), timeout)
        return true
    }
}
