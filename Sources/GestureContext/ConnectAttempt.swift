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
    let fd: Int32
    private let doneFD: Int32
    private let outcome = Mutex<Outcome?>(nil)
    private let choice: AppSourceChoice
    private let connect: (AppSourceChoice) throws(AppSourceLost) -> any AppBackend

    init(choice: AppSourceChoice, connect: @escaping (AppSourceChoice) throws(AppSourceLost) -> any AppBackend) {
        self.choice = choice
        self.connect = connect
        var ends: [Int32] = [-1, -1]
        // pipe2 is not in Swift's Glibc: the flags are set after.
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        fd = ends[0]
        doneFD = ends[1]
        guard fd >= 0, startThread() else {
            // No pipe or no thread: the attempt is made here, as it always could be.
            run()
            return
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
        if doneFD >= 0 { close(doneFD) }
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
        if doneFD >= 0 {
            var byte: UInt8 = 1
            _ = write(doneFD, &byte, 1)
        }
    }

    /// A detached thread that makes the attempt; it holds the attempt until it ends.
    private func startThread() -> Bool {
        SystemThread.detached { self.run() }
    }
}
