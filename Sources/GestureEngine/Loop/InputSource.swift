import Glibc
import GestureCore
import GestureInput

/// One touch input in the live loop: a pipe, a FIFO, standard input or a
/// live device, read as its bytes arrive. Its end (or its device unplugged)
/// cancels the touches still down and fires the device's deadlines.
final class InputSource: LoopSource {
    private unowned let session: Session
    let source: Source

    init(session: Session, source: Source) {
        self.session = session
        self.source = source
    }

    var keepsLoopRunning: Bool { source.isOpen }

    func descriptors(into list: inout [PollRequest]) {
        guard source.isOpen else { return }
        // A shared device is read by its share's thread, which wakes the loop.
        let fd = session.engine.lanes.lane(source.index)?.share?.wakeDescriptor ?? source.fd
        list.append(PollRequest(fd: fd, events: Int16(POLLIN)))
    }

    func serve(_ round: LoopRound) {
        guard source.isOpen, !round.ready.isEmpty, !session.engine.isOver else { return }
        if let status = read() { session.end(with: status) }
    }

    /// Reads what is there; returns an exit status when the run must stop.
    private func read() -> ExitCode? {
        let engine = session.engine
        if let share = engine.lanes.lane(source.index)?.share { return read(share) }
        if let device = source.device { return read(device) }
        let buffer = session.buffer
        let n = Glibc.read(source.fd, buffer.baseAddress, buffer.count)
        if n < 0 {
            let code = errno
            if code == EINTR || code == EAGAIN { return nil }
            engine.console.note("\(source.name): read error: \(String(cString: strerror(code)))")
            close()
            return .noInput
        }
        if n == 0 {
            close()
            return engine.reportDiagnostics(source)
        }
        source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: session.decoderOutput)
        engine.announce(source)
        if let status = engine.reportDiagnostics(source) { return status }
        // "Input that is not yet available closes the frame."
        if source.file?.hasDataReady() == false { source.decoder.flush(into: session.decoderOutput) }
        return nil
    }

    /// A live device, through libevdev: everything waiting, the state re-read
    /// from the kernel after a SYN_DROPPED included.
    private func read(_ device: InputDevice) -> ExitCode? {
        let engine = session.engine
        let buffer = session.buffer
        while source.isOpen {
            switch device.readEvents(into: buffer) {
            case .bytes where device.isMouse:
                // Read beside the desktop (sharing suspended): no touch is in it.
                break
            case .bytes(let n):
                source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: session.decoderOutput)
            case .nothing:
                engine.announce(source)
                return engine.reportDiagnostics(source)
            case .unplugged:
                lost(saying: "\(source.name) was unplugged")
            case .failed(let code):
                lost(saying: "\(source.name): read error: \(String(cString: strerror(code)))")
            }
            if let status = engine.reportDiagnostics(source) { return status }
        }
        return nil
    }

    /// What a shared device's thread read (and put on the clone) since the loop last looked.
    private func read(_ share: DeviceShare) -> ExitCode? {
        let engine = session.engine
        let delivery = share.take()
        for news in delivery.news {
            switch news {
            case .cloneWriteFailed(let error): engine.console.note(error.message + " (said once)")
            }
        }
        if let dropped = delivery.dropped {
            engine.console.note("\(source.name): the rules fell behind this device: \(dropped) of its events were dropped for them (the desktop had every one); the touches then in progress were cancelled")
        }
        // A mouse's records are for no touch decoder: its strokes come as the gate's signals.
        if !delivery.records.isEmpty, !share.isMouse {
            delivery.records.withUnsafeBytes { source.decoder.feed($0, into: session.decoderOutput) }
        }
        engine.shareSaid(delivery.signals, by: source)
        switch delivery.end {
        case nil:
            break
        case .stopped:
            // The device is read here again, beside the desktop.
            engine.unshare(source)
            source.device?.ungrab()
        case .unplugged:
            lost(saying: "\(source.name) was unplugged")
        case .readFailed(let code):
            lost(saying: "\(source.name): read error: \(String(cString: strerror(code)))")
        case .waitFailed(let code):
            lost(saying: "\(source.name): its sharing thread could not wait for it: \(String(cString: strerror(code)))")
        }
        engine.announce(source)
        return engine.reportDiagnostics(source)
    }

    /// The device went away, or reading it failed: it is waited for.
    private func lost(saying what: String) {
        session.engine.console.note("\(what); waiting for it to come back")
        close()
    }

    /// The input ended or vanished: touches still down are cancelled and the
    /// device's pending deadlines fire.
    private func close() {
        let engine = session.engine
        source.decoder.finish(into: session.decoderOutput)
        engine.finish(device: source.index)
        engine.unshare(source)
        source.close()
        _ = engine.reportDiagnostics(source)
    }

    /// Its device is back (a hotplug): read again, with the same options.
    func reopen(at path: String) {
        let engine = session.engine
        let device: InputDevice
        do { device = try engine.openDevice(path) } catch {
            // udev may not have set its permissions yet: the watcher sees it again when it does.
            if engine.options.verbose { engine.console.note("\(path) is back but cannot be opened yet: \(error.message)") }
            return
        }
        source.handle = .device(device)
        source.decoder = engine.deviceDecoder(for: path, description: device.description, index: source.index, fd: device.fd)
        if !engine.shareIfAsked(source) {
            device.ungrab()
            engine.console.note("\(path) is read beside the desktop, not shared: the desktop acts on the same fingers")
        }
        engine.console.note("\(path) is back")
    }
}
