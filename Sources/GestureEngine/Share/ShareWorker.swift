import Glibc
import GestureInput
import GestureSystem

/// Everything a shared device's thread touches, and the thread's loop: it
/// reads the device, puts what the gate lets through on the clone at once,
/// and hands every record on to the engine through the exchange. What the
/// rules do, and how long they take, never delays the desktop.
// Invariant: made on the engine's thread before the share's thread starts and handed to it whole; from then on only that thread calls it (DeviceShare keeps no reference), and the engine touches the device behind it only through its constant properties until the thread is joined.
final class ShareWorker: @unchecked Sendable {
    private let device: any SharedDevice
    private var gate: any DeviceGate
    /// Nil once the thread ended: the kernel then removes the clone.
    private var clone: (any CloneWriter)?
    private let exchange: ShareExchange
    /// What the gate let through since the last write.
    private var out: [EvdevEvent] = []
    /// A write failed: the engine was told, once.
    private var writeFailed = false

    init(device: any SharedDevice, clone: any CloneWriter, gate: any DeviceGate, exchange: ShareExchange) {
        self.device = device
        self.clone = clone
        self.gate = gate
        self.exchange = exchange
    }

    /// Runs until the device ends or sharing stops; the engine hears of each
    /// step, and of the end last, after the clone is gone.
    func run() {
        Self.warmUp(gate)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512 * RawEventDecoder.recordSize, alignment: 8)
        defer { buffer.deallocate() }
        while step(buffer) == nil {}
    }

    /// A pass through a copy of the gate, written nowhere, so that the first
    /// real packet finds every path it takes ready (`DeviceGate.warmUp`).
    /// Here, on the share's own thread, it holds up nobody else.
    private static func warmUp(_ gate: any DeviceGate) {
        gate.warmUp()
    }

    /// A wait and what it found; the end when the thread is done.
    private func step(_ buffer: UnsafeMutableRawBufferPointer) -> ShareEnd? {
        var signals: [ShareSignal] = []
        var records: [UInt8] = []
        var end: ShareEnd?
        var resumed = false
        switch wait() {
        case .failed(let code):
            end = .waitFailed(code)
        case .ready(let commandsWaiting):
            if commandsWaiting {
                let collected = exchange.collect(state: stateAfterDrop)
                resumed = collected.resumed
                end = obey(collected.commands, signals: &signals)
            }
            if end == nil, let due = gate.deadline, device.now() >= due { gate.expire(at: device.now(), into: &out, signals: &signals) }
            if end == nil { end = read(buffer, records: &records, signals: &signals) }
        }
        if signals.contains(.touch(.escape)) { end = .stopped }
        let news = flush()
        // The clone goes now, before the engine hears: nothing stays down on it.
        if end != nil { clone = nil }
        guard !records.isEmpty || !signals.isEmpty || !news.isEmpty || end != nil || resumed else { return nil }
        exchange.deliver(records: records, signals: signals, news: news, end: end, state: stateAfterDrop)
        return end
    }

    private enum Wait {
        /// `commands`: the engine's pipe was readable.
        case ready(commands: Bool)
        case failed(Int32)
    }

    /// Until the device or the engine has something, or the gate's next deadline.
    private func wait() -> Wait {
        var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: exchange.workerWake.fd, events: Int16(POLLIN), revents: 0)]
        while true {
            let timeout = gate.deadline.map { PollTimeout.milliseconds($0 - device.now()) } ?? -1
            if poll(&fds, 2, timeout) >= 0 { break }
            let code = errno
            // A signal handled on this thread: the wait goes on, to the same deadline.
            guard code == EINTR else { return .failed(code) }
        }
        // A descriptor poll cannot watch is readable forever: the loop would spin.
        if fds.contains(where: { $0.revents & Int16(POLLNVAL) != 0 }) { return .failed(EBADF) }
        return .ready(commands: fds[1].revents != 0)
    }

    /// The engine's commands, to the gate in order; `.stopped` for a stop.
    private func obey(_ commands: [ShareCommand], signals: inout [ShareSignal]) -> ShareEnd? {
        for command in commands {
            switch command {
            case .claim: gate.claim(into: &out, signals: &signals)
            case .release: gate.release(into: &out)
            case .update(let settings): gate.update(settings)
            case .modifiers(let held): gate.holdModifiers(held)
            case .stop:
                gate.stop(into: &out)
                return .stopped
            }
        }
        return nil
    }

    /// Everything waiting on the device, through the gate; its end, if it ended.
    private func read(_ buffer: UnsafeMutableRawBufferPointer, records: inout [UInt8], signals: inout [ShareSignal]) -> ShareEnd? {
        while true {
            switch device.readEvents(into: buffer) {
            case .bytes(let n):
                let read = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                forward(read, signals: &signals)
                records.append(contentsOf: read)
            case .nothing: return nil
            case .unplugged: return .unplugged
            case .failed(let code): return .readFailed(code)
            }
        }
    }

    private func forward(_ records: UnsafeRawBufferPointer, signals: inout [ShareSignal]) {
        let size = RawEventDecoder.recordSize
        for offset in stride(from: 0, to: records.count - size + 1, by: size) {
            gate.handle(EvdevEvent(record: records, at: offset), into: &out, signals: &signals)
        }
    }

    /// Writes what the gate let through; the first failure of the run is news.
    private func flush() -> [ShareNews] {
        guard !out.isEmpty else { return [] }
        defer { out.removeAll(keepingCapacity: true) }
        do { try clone?.write(out) } catch {
            guard !writeFailed else { return [] }
            writeFailed = true
            return [.cloneWriteFailed(error)]
        }
        return []
    }

    /// What follows a drop for the engine: a SYN_DROPPED, the device's state
    /// as libevdev keeps it, and a SYN_REPORT, as a reader of a device whose
    /// kernel buffer overflowed gets them (`DropRecovery.kernelState`).
    private func stateAfterDrop() -> [UInt8] {
        let now = device.now()
        var bytes: [UInt8] = []
        EvdevEvent(time: now, type: EV.syn, code: SYN.dropped, value: 0).appendStampedRecord(to: &bytes)
        for event in device.currentState() {
            EvdevEvent(time: now, type: event.type, code: event.code, value: event.value).appendStampedRecord(to: &bytes)
        }
        EvdevEvent(time: now, type: EV.syn, code: SYN.report, value: 0).appendStampedRecord(to: &bytes)
        return bytes
    }
}
