import Glibc
@testable import GestureEngine
import GestureInput
import Synchronization

/// A device made of a pipe: the test writes records at one end, the share's
/// thread reads the other, as it reads a grabbed device. Closing the writing
/// end is the device's end (as ENODEV is a device's). Its clock stands still
/// until the test moves it, so the gate's hold-backs end when the test says.
final class PipeDevice: SharedDevice {
    let fd: Int32
    private let writeEnd = Mutex<Int32>(-1)
    /// The state the thread has read, for `currentState()`; only the share's thread touches it.
    private var state = EvdevState()
    private let clock: Mutex<Double>

    init(time: Double) {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "a test needs a pipe")
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        fd = ends[0]
        writeEnd.withLock { $0 = ends[1] }
        clock = Mutex(time)
    }

    deinit {
        close(fd)
        unplug()
    }

    func readEvents(into buffer: UnsafeMutableRawBufferPointer) -> InputDevice.ReadOutcome {
        let n = read(fd, buffer.baseAddress, buffer.count)
        if n > 0 {
            for e in EvdevEvent.records(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { state.apply(e) }
            return .bytes(n)
        }
        if n == 0 { return .unplugged }
        return errno == EAGAIN ? .nothing : .failed(errno)
    }

    func currentState() -> [EvdevEvent] {
        var events: [EvdevEvent] = []
        for slot in state.slots.keys.sorted() {
            events.append(EvdevEvent(time: 0, type: EV.abs, code: ABS.mtSlot, value: Int32(slot)))
            for (code, value) in state.slots[slot, default: [:]].sorted(by: { $0.key < $1.key }) {
                events.append(EvdevEvent(time: 0, type: EV.abs, code: code, value: value))
            }
        }
        for (code, value) in state.keys.sorted(by: { $0.key < $1.key }) { events.append(EvdevEvent(time: 0, type: EV.key, code: code, value: value)) }
        return events
    }

    func now() -> Double { clock.withLock { $0 } }

    // MARK: The test's side

    /// Writes a packet's records (one write: a pipe keeps it whole).
    func send(_ packet: [EvdevEvent]) {
        var bytes: [UInt8] = []
        for e in packet { e.appendStampedRecord(to: &bytes) }
        let written = writeEnd.withLock { end in bytes.withUnsafeBytes { write(end, $0.baseAddress, $0.count) } }
        precondition(written == bytes.count, "a packet fits a pipe")
    }

    func move(to time: Double) { clock.withLock { $0 = time } }

    /// The device's end.
    func unplug() {
        writeEnd.withLock { end in
            if end >= 0 { close(end) }
            end = -1
        }
    }
}

/// A device whose descriptor poll cannot watch.
final class UnwatchableDevice: SharedDevice {
    let fd = Int32.max
    func readEvents(into buffer: UnsafeMutableRawBufferPointer) -> InputDevice.ReadOutcome { .nothing }
    func currentState() -> [EvdevEvent] { [] }
    func now() -> Double { 0 }
}

/// What a test clone was written, kept apart from the clone so that the test
/// can see the clone let go. Written on the share's thread, read on the test's.
final class CloneLog: Sendable {
    private let events = Mutex<[EvdevEvent]>([])
    private let released = Mutex(false)
    /// Readable after each write and at the release.
    private let written: (read: Int32, write: Int32)

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "a test needs a pipe")
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        written = (ends[0], ends[1])
    }

    deinit {
        close(written.read)
        close(written.write)
    }

    func append(_ packet: [EvdevEvent]) {
        events.withLock { $0 += packet }
        poke()
    }

    func release() {
        released.withLock { $0 = true }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(written.write, &byte, 1)
    }

    var all: [EvdevEvent] { events.withLock { $0 } }
    var isReleased: Bool { released.withLock { $0 } }

    /// The clone as the kernel would hold it after everything written.
    var state: EvdevState {
        var state = EvdevState()
        for e in all { state.apply(e) }
        return state
    }

    /// Waits (10 s at most) until `done` holds of the log; whether it did.
    func wait(until done: (CloneLog) -> Bool) -> Bool {
        let deadline = Pipes.now() + 10
        while !done(self) {
            guard Pipes.waitReadable(written.read, until: deadline) else { return done(self) }
            Pipes.drain(written.read)
        }
        return true
    }
}

/// A clone that records what it is written, and says when it is let go.
final class RecordingClone: CloneWriter {
    let log: CloneLog
    /// Writes fail with this, when set.
    let failure: UinputAccessError?

    init(_ log: CloneLog, failing failure: UinputAccessError? = nil) {
        self.log = log
        self.failure = failure
    }

    deinit { log.release() }

    func write(_ events: [EvdevEvent]) throws(UinputAccessError) {
        if let failure { throw failure }
        log.append(events)
    }
}

/// What the engine's side took, delivery after delivery.
struct Taken {
    var records: [UInt8] = []
    var dropped: [Int] = []
    var signals: [ShareSignal] = []
    var news: [ShareNews] = []
    var end: ShareEnd?

    var events: [EvdevEvent] { records.withUnsafeBytes { EvdevEvent.records($0) } }
}

extension DeviceShare {
    /// Takes deliveries as the engine's loop does (on its wakeup), until
    /// `done` holds of what was taken, or 10 s pass.
    func take(into taken: inout Taken, until done: (Taken) -> Bool) {
        let deadline = Pipes.now() + 10
        while !done(taken) {
            let delivery = take()
            taken.records += delivery.records
            if let dropped = delivery.dropped { taken.dropped.append(dropped) }
            taken.signals += delivery.signals
            taken.news += delivery.news
            if let end = delivery.end { taken.end = end }
            guard !done(taken), Pipes.waitReadable(wakeDescriptor, until: deadline) else { return }
        }
    }

    /// Waits (10 s at most) until the thread has put the mailbox in `flow`, taking
    /// nothing: the engine's loop woken and busy elsewhere.
    func wait(untilFlow expected: ShareMailbox.Flow) -> Bool {
        let deadline = Pipes.now() + 10
        while flow != expected {
            Pipes.drain(wakeDescriptor)
            if flow == expected { return true }
            guard Pipes.waitReadable(wakeDescriptor, until: deadline) else { return flow == expected }
        }
        return true
    }
}

enum Pipes {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Whether `fd` became readable before `deadline` (monotonic seconds).
    static func waitReadable(_ fd: Int32, until deadline: Double) -> Bool {
        while true {
            let left = deadline - now()
            guard left > 0 else { return false }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&request, 1, Int32((left * 1000).rounded(.up)))
            if n > 0 { return true }
            if n < 0 && errno != EINTR { return false }
        }
    }

    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
