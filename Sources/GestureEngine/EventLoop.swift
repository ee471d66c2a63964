#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore
import GestureInput
import GestureSystem

extension Engine {
    /// Pipes, FIFOs and devices, read together as their bytes arrive. The loop
    /// sleeps until input or the next recognizer deadline (on a live clock), and
    /// keeps going while a device may still come back.
    func runLoop(_ inputs: Inputs) -> ExitCode {
        var sources = inputs.sources
        let discovering = inputs.discovering
        let watcher = inputs.watcher
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        // Rules reload on SIGHUP, and when their files change.
        let channels = openSideChannels()
        if options.realtime { pace = RealtimePace(channels: channels) }

        while fatal == nil {
            let open = sources.filter(\.isOpen)
            let awaitingDevices = watcher != nil && (discovering || sources.contains(where: \.isLiveDevice))
            if open.isEmpty && !awaitingDevices && phones == nil { break }

            var set = PollSet<LoopToken>()
            // The side channels before the touch input that came with them: a
            // gesture usually follows a focus change.
            addSideChannels(channels, to: &set)
            for (i, source) in open.enumerated() { set.add(source.fd, .input(i)) }
            set.add(watcher?.fd ?? -1, .hotplug)
            addPhones(to: &set)
            let now = MonotonicClock.now()
            var timeout = idleTimeout(now: now)
            for other in [sideTimeout(channels, now: now), phoneTimeout(now: now)] where other >= 0 {
                timeout = timeout < 0 ? other : min(timeout, other)
            }
            let ready: [LoopToken]
            switch set.wait(timeout: timeout) {
            case .ready(let tokens): ready = tokens
            case .timedOut: ready = []
            case .interrupted: continue
            case .failed(let code):
                console.say("gesturemap: poll failed: \(String(cString: strerror(code)))")
                return .unavailable
            }
            serveSideChannels(channels, ready: ready)
            if fatal != nil { break }
            servePhones(ready: ready)
            if fatal != nil { break }
            if ready.isEmpty {
                // Nothing came before the next deadline: on a live clock, time has
                // passed all the same (a long press on a still finger).
                for source in open { source.decoder.flush { process($0) } }
                // Only to the deadline that woke us: input that came since
                // poll returned is read first, in case it changes what is due
                // after (a second tap landing just before its window closes).
                if let latest = latestInputTime, MonotonicClock.isLive(latest) {
                    let now = MonotonicClock.now()
                    advanceAll(to: min(now, nextDeadline ?? now))
                }
                continue
            }
            for case .input(let i) in ready where fatal == nil {
                if let status = read(open[i], into: buffer) { return status }
            }
            if let watcher, ready.contains(.hotplug) {
                for path in watcher.changedNodes() {
                    if let returning = sources.first(where: { $0.path == path && !$0.isOpen && $0.isLiveDevice }) {
                        reopen(returning, at: path)
                    } else if discovering, !sources.contains(where: { $0.path == path }),
                              case .success(let added) = openDiscovered(path, index: sources.count) {
                        sources.append(added)
                    } else if !sources.contains(where: { $0.path == path }), options.keyboards.isEmpty,
                              let keyInputs, keyInputs.addDevice(path), options.verbose {
                        console.say("gesturemap: found keyboard \(path)")
                    }
                }
            }
        }
        finishTimers()
        return .ok
    }

    /// Reads what is there; returns an exit status when the run must stop.
    private func read(_ source: Source, into buffer: UnsafeMutableRawBufferPointer) -> ExitCode? {
        if let device = source.device { return read(device, of: source, into: buffer) }
        let n = Glibc.read(source.fd, buffer.baseAddress, buffer.count)
        if n < 0 {
            let code = errno
            if code == EINTR || code == EAGAIN { return nil }
            console.say("gesturemap: \(source.name): read error: \(String(cString: strerror(code)))")
            close(source)
            return .noInput
        }
        if n == 0 {
            close(source)
            return reportDiagnostics(source)
        }
        source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { process($0) }
        announce(source)
        if let status = reportDiagnostics(source) { return status }
        // "Input that is not yet available closes the frame."
        if source.file?.hasDataReady() == false { source.decoder.flush { process($0) } }
        return nil
    }

    /// A live device, through libevdev: everything waiting, the state re-read
    /// from the kernel after a SYN_DROPPED included.
    private func read(_ device: InputDevice, of source: Source, into buffer: UnsafeMutableRawBufferPointer) -> ExitCode? {
        while source.isOpen {
            switch device.readEvents(into: buffer) {
            case .bytes(let n):
                source.decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { process($0) }
            case .nothing:
                announce(source)
                return reportDiagnostics(source)
            case .unplugged:
                console.say("gesturemap: \(source.name) was unplugged; waiting for it to come back")
                close(source)
            case .failed(let code):
                console.say("gesturemap: \(source.name): read error: \(String(cString: strerror(code))); waiting for it to come back")
                close(source)
            }
            if let status = reportDiagnostics(source) { return status }
        }
        return nil
    }

    /// The input ended or vanished: touches still down are cancelled and the
    /// device's pending deadlines fire.
    private func close(_ source: Source) {
        source.decoder.finish { process($0) }
        finish(device: source.index)
        source.isOpen = false
        source.device = nil
        source.file = nil
        _ = reportDiagnostics(source)
    }

    private func reopen(_ source: Source, at path: String) {
        let device: InputDevice
        do { device = try openDevice(path) } catch {
            // udev may not have set its permissions yet: the watcher sees it again when it does.
            if options.verbose { console.say("gesturemap: \(path) is back but cannot be opened yet: \(error.message)") }
            return
        }
        source.device = device
        source.decoder = deviceDecoder(for: path, description: device.description, index: source.index, fd: device.fd)
        source.isOpen = true
        console.say("gesturemap: \(path) is back")
    }

    private func openDiscovered(_ path: String, index: Int) -> Result<Source, ExitCode> {
        guard let device = try? InputDevice(path: path), device.isTouch else { return .failure(.unavailable) }
        let opened = openSource(path, index: index)
        if case .success = opened { console.say("gesturemap: found \(path) (\(device.description.name.map(TerminalText.escaped) ?? "unnamed"))") }
        return opened
    }

    /// How long the loop may sleep for the recognizers, in ms (-1: until
    /// input): until the next deadline when input times follow the monotonic
    /// clock (devices, `record` output).
    func idleTimeout(now: Double) -> Int32 {
        guard let deadline = nextDeadline, let latest = latestInputTime, MonotonicClock.isLive(latest) else { return -1 }
        return PollTimeout.milliseconds(deadline - now)
    }
}
