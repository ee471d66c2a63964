import Glibc
import GestureCore
import GestureInput
import GestureSystem

/// One live device shared with the desktop: gesturemap holds the device
/// (grabbed) and the desktop reads its clone. A thread of its own reads the
/// device, puts what the gate lets through on the clone at once, and hands
/// every record on to the engine's loop: what the rules do, and how long they
/// take, never delays the desktop.
// Invariant: from start() to the thread's end only the thread reads the device and touches `gate`, `clone`, `out`, `writeFailed` and `unsaidWriteFailure`; both threads reach `mail` only under `lock`.
final class DeviceShare: @unchecked Sendable {
    let path: String
    let description: EvdevDescription
    /// The clone's /dev/input/eventN.
    let node: String?

    private let device: InputDevice
    private var gate: ShareGate
    private var clone: DeviceClone?
    private let monotonic: Bool
    private var out: [EvdevEvent] = []
    private var writeFailed = false

    private let lock = SystemLock()
    private var mail = Mail()
    /// The engine's loop polls it: records, news or the end are waiting.
    let engineWake: Wakeup
    private let threadWake: Wakeup
    private var thread: SystemThread?

    /// What passes between the threads.
    private struct Mail {
        /// Engine → thread.
        var commands: [Command] = []
        /// Thread → engine: the device's records, in order, as read; bounded.
        var records = ShareMailbox()
        var signals: [ShareGate.Signal] = []
        var messages: [String] = []
        /// The thread ended: the device was unplugged or failed, or sharing stopped.
        var end: End?
    }

    enum Command {
        case claim, release, update(ShareGate.Settings), stop
    }

    enum End: Equatable {
        case unplugged
        case failed(Int32)
        /// Sharing stopped (the escape, or the engine asked): the device is the engine's to read again.
        case stopped
    }

    /// What the engine takes from the thread.
    struct Delivery {
        var records: [UInt8]
        /// Records dropped for the rules while the engine was behind (the desktop had them).
        var dropped: Int?
        var signals: [ShareGate.Signal]
        var messages: [String]
        var end: End?
    }

    init(device: InputDevice, uinput: String, settings: ShareGate.Settings) throws(CloneError) {
        guard let engineWake = Wakeup(), let threadWake = Wakeup() else { throw .failed(device.path, "no pipe for its thread") }
        self.engineWake = engineWake
        self.threadWake = threadWake
        path = device.path
        description = device.description
        self.device = device
        let clone = try DeviceClone(of: device, uinput: uinput)
        self.clone = clone
        node = clone.node
        gate = ShareGate(settings: settings, state: device.currentState())
        monotonic = device.monotonicClock
        Self.warmUp(gate)
    }

    /// A landing and a lift through a copy of the gate, written nowhere: the
    /// first real landing then finds every path it takes ready (the runtime's
    /// first look-ups of the types it uses took 20 to 40 ms in the debug build
    /// under QEMU, which libinput saw as a late first packet).
    private static func warmUp(_ gate: ShareGate) {
        var copy = gate
        var out: [EvdevEvent] = []
        let landing: [(UInt16, UInt16, Int32)] = [(EV.abs, ABS.mtSlot, 0), (EV.abs, ABS.mtTrackingID, 1), (EV.abs, ABS.mtPositionX, 1),
                                                  (EV.abs, ABS.mtPositionY, 1), (EV.key, BTN.touch, 1), (EV.syn, SYN.report, 0)]
        let lift: [(UInt16, UInt16, Int32)] = [(EV.abs, ABS.mtTrackingID, -1), (EV.key, BTN.touch, 0), (EV.syn, SYN.report, 0)]
        for (type, code, value) in landing + lift {
            _ = copy.handle(EvdevEvent(time: 0, type: type, code: code, value: value), into: &out)
        }
        _ = copy.expire(at: 1, into: &out)
    }

    /// Starts the thread; false when none could be made.
    func start() -> Bool {
        guard let made = SystemThread({ [self] in run() }) else { return false }
        thread = made
        return true
    }

    /// A claimed rule recognized the sequence on this device.
    func claim() { send(.claim) }
    /// The recognizers decided the pending sequence is none of the claimed ones.
    func release() { send(.release) }
    func update(_ settings: ShareGate.Settings) { send(.update(settings)) }

    /// Ends sharing and waits for the thread: the clone is gone, nothing left down on it.
    func stop() {
        send(.stop)
        thread?.join()
        thread = nil
    }

    /// What the thread has for the engine.
    func take() -> Delivery {
        engineWake.drain()
        let (delivery, wasDropping) = lock.locked { () -> (Delivery, Bool) in
            let dropping = mail.records.isDropping
            let (records, dropped) = mail.records.take()
            let delivery = Delivery(records: records, dropped: dropped, signals: mail.signals, messages: mail.messages, end: mail.end)
            mail.signals.removeAll()
            mail.messages.removeAll()
            return (delivery, dropping)
        }
        // The thread hands over the device's state now, not at the next read.
        if wasDropping { threadWake.signal() }
        return delivery
    }

    private func send(_ command: Command) {
        lock.locked { mail.commands.append(command) }
        threadWake.signal()
    }

    // MARK: The thread

    private func run() {
        let size = RawEventDecoder.recordSize
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512 * size, alignment: 8)
        defer { buffer.deallocate() }
        var end: End?
        while end == nil {
            var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: threadWake.fd, events: Int16(POLLIN), revents: 0)]
            let timeout = gate.deadline.map { PollTimeout.milliseconds($0 - deviceNow()) } ?? -1
            _ = poll(&fds, 2, timeout)
            var signals: [ShareGate.Signal] = []
            var records: [UInt8] = []
            var resumed = false
            if fds[1].revents != 0 {
                threadWake.drain()
                resumed = lock.locked { () -> Bool in
                    guard mail.records.isDropping else { return false }
                    mail.records.resumeIfCaughtUp(state: stateAfterDrop)
                    return !mail.records.isDropping
                }
                for command in lock.locked({ () -> [Command] in defer { mail.commands.removeAll() }; return mail.commands }) {
                    switch command {
                    case .claim: if let s = gate.claim(into: &out) { signals.append(s) }
                    case .release: gate.release(into: &out)
                    case .update(let settings): gate.update(settings)
                    case .stop:
                        gate.stop(into: &out)
                        end = .stopped
                    }
                }
            }
            if end == nil, let due = gate.deadline, deviceNow() >= due, let s = gate.expire(at: deviceNow(), into: &out) { signals.append(s) }
            while end == nil {
                switch device.readEvents(into: buffer) {
                case .bytes(let n):
                    let read = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                    signals += forward(read)
                    records.append(contentsOf: read)
                    continue
                case .nothing: break
                case .unplugged: end = .unplugged
                case .failed(let code): end = .failed(code)
                }
                break
            }
            if signals.contains(.escape) { end = .stopped }
            flush()
            if end != nil {
                // The clone goes now, before the engine hears: nothing stays down on it.
                clone = nil
            }
            guard !records.isEmpty || !signals.isEmpty || end != nil || resumed else { continue }
            let message = unsaidWriteFailure
            unsaidWriteFailure = nil
            lock.locked {
                records.withUnsafeBytes { mail.records.put($0, state: stateAfterDrop) }
                mail.signals += signals
                if let message { mail.messages.append(message) }
                if end != nil { mail.end = end }
            }
            engineWake.signal()
        }
    }

    /// What follows a drop for the engine: a SYN_DROPPED, the device's state
    /// as libevdev keeps it, and a SYN_REPORT, as a reader of a device whose
    /// kernel buffer overflowed gets them (`DropRecovery.kernelState`).
    private func stateAfterDrop() -> [UInt8] {
        let now = deviceNow()
        var bytes: [UInt8] = []
        EvdevEvent(time: now, type: EV.syn, code: SYN.dropped, value: 0).appendStampedRecord(to: &bytes)
        for event in device.currentState() {
            EvdevEvent(time: now, type: event.type, code: event.code, value: event.value).appendStampedRecord(to: &bytes)
        }
        EvdevEvent(time: now, type: EV.syn, code: SYN.report, value: 0).appendStampedRecord(to: &bytes)
        return bytes
    }

    /// A failed write of the clone, for the engine to say (once a run).
    private var unsaidWriteFailure: String?

    private func forward(_ records: UnsafeRawBufferPointer) -> [ShareGate.Signal] {
        var signals: [ShareGate.Signal] = []
        let size = RawEventDecoder.recordSize
        for offset in stride(from: 0, to: records.count - size + 1, by: size) {
            if let signal = gate.handle(EvdevEvent(record: records, at: offset), into: &out) { signals.append(signal) }
        }
        return signals
    }

    /// Now on the device's clock: the monotonic one, or the wall's when it could not be asked for it.
    private func deviceNow() -> Double {
        monotonic ? MonotonicClock.now() : WallClock.now()
    }

    private func flush() {
        guard !out.isEmpty else { return }
        do { try clone?.write(out) } catch {
            if !writeFailed { unsaidWriteFailure = "gesturemap: " + error.message + " (said once)" }
            writeFailed = true
        }
        out.removeAll(keepingCapacity: true)
    }
}
