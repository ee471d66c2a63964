import Glibc
import Synchronization
import GestureSystem

/// One attempt to connect an app source, made on a thread of its own. A
/// server that accepts the connection and then never answers (a stopped X
/// server, a socket someone else put where the compositor's was) holds that
/// thread, never the engine's loop: the loop polls `fd`, readable once the
/// attempt has ended, and takes the outcome.
// Invariant: the lets are set before the thread starts, and `outcome` passes between the threads only through its Mutex.
final class ConnectAttempt: @unchecked Sendable {
    /// Handed from the attempt's thread to the loop's once, never shared.
    // Invariant: made on the attempt's thread and taken by the loop's through the Mutex, once; never shared.
    enum Outcome: @unchecked Sendable {
        case connected(any AppBackend)
        case failed(AppSourceLost)
    }

    /// Readable once the attempt has ended.
    var fd: Int32 { done?.fd ?? -1 }
    private let done: Wakeup?
    private let outcome = Mutex<Outcome?>(nil)
    private let choice: AppSourceChoice
    private let connect: (AppSourceChoice) throws(AppSourceLost) -> any AppBackend

    init(choice: AppSourceChoice, connect: @escaping (AppSourceChoice) throws(AppSourceLost) -> any AppBackend) {
        self.choice = choice
        self.connect = connect
        done = Wakeup()
        guard done != nil, startThread() else {
            // No pipe or no thread: the attempt is made here, as it always could be.
            run()
            return
        }
    }

    /// The outcome, once the attempt has ended; nil while it goes on.
    func take() -> Outcome? {
        outcome.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }

    /// Waits for the attempt to end, up to `seconds`; whether it has.
    func wait(upTo seconds: Double) -> Bool {
        guard fd >= 0 else { return true }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + seconds
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return false }
            let r = poll(&poller, 1, PollTimeout.milliseconds(left))
            if r > 0 { return true }
            if r < 0 && errno != EINTR { return false }
        }
    }

    private func run() {
        let result: Outcome
        do {
            result = .connected(try connect(choice))
        } catch {
            result = .failed(error)
        }
        outcome.withLock { $0 = result }
        done?.signal()
    }

    /// A detached thread that makes the attempt; it holds the attempt until it ends.
    private func startThread() -> Bool {
        SystemThread.detached { self.run() }
    }
}
