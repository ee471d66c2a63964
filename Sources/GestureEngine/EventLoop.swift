#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore
import GestureInput

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
        let hangup = options.rulesPath == nil ? -1 : HangupSignal.install()
        let ruleWatcher = options.rulesPath != nil && options.watchRules ? RuleWatcher() : nil
        ruleWatcher?.watch(runtime?.sourceFiles ?? [])
        var settle = ReloadSettle()

        while fatal == nil {
            let open = sources.filter(\.isOpen)
            let awaitingDevices = watcher != nil && (discovering || sources.contains(where: \.isLiveDevice))
            if open.isEmpty && !awaitingDevices { break }

            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let extra = fds.count
            fds.append(pollfd(fd: watcher?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: hangup, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: ruleWatcher?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            // The focused application and the keyboards, read before the touch
            // input that came with them: a gesture usually follows a focus change.
            fds.append(pollfd(fd: appTracker?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            let keyboards = keyInputs?.pollable ?? []
            for keyboard in keyboards { fds.append(pollfd(fd: keyboard.reader.fd, events: Int16(POLLIN), revents: 0)) }
            // No events asked: only a reader that went away (POLLERR, POLLHUP) wakes us.
            let outputIndex = fds.count
            fds.append(pollfd(fd: output.hangupDescriptor ?? -1, events: 0, revents: 0))
            var timeout = idleTimeout()
            if let due = settle.due {
                let wait = Checked.integer(min(max(((due - MonotonicClock.now()) * 1000).rounded(.up), 0), 60_000), as: Int32.self) ?? 0
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                console.say("gesturemap: poll failed: \(String(cString: strerror(errno)))")
                return .unavailable
            }
            if let ruleWatcher, settle.takeDue(at: MonotonicClock.now()) {
                reloadRules(because: "the file changed")
                ruleWatcher.watch(runtime?.sourceFiles ?? [])
            }
            if launcher.runningCount > 0 { launcher.enforceTimeouts() }
            if fds[outputIndex].revents != 0 {
                checkOutputReader()
                if fatal != nil { break }
            }
            if let appTracker {
                if fds[extra + 3].revents != 0 { appTracker.handleReadable() }
                appTracker.tick()
            }
            if let keyInputs {
                for (i, keyboard) in keyboards.enumerated() where fds[extra + 4 + i].revents != 0 { keyInputs.read(keyboard) }
                noteModifiers(at: nil)
            }
            if ready == 0 {
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
            for (i, source) in open.enumerated() where fds[i].revents != 0 && fatal == nil {
                if let status = read(source, into: buffer) { return status }
            }
            if fds[extra + 1].revents != 0, HangupSignal.drain() {
                reloadRules(because: "SIGHUP")
                ruleWatcher?.watch(runtime?.sourceFiles ?? [])
            }
            if let ruleWatcher, fds[extra + 2].revents != 0, ruleWatcher.changed() {
                settle.changed(at: MonotonicClock.now())
            }
            if let watcher, fds[extra].revents != 0 {
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

    /// How long the loop may sleep, in ms: until the next deadline when input
    /// times follow the monotonic clock (devices, `record` output), else until input.
    func idleTimeout() -> Int32 {
        var wait: Double?
        if let deadline = nextDeadline, let latest = latestInputTime, MonotonicClock.isLive(latest) {
            wait = (deadline - MonotonicClock.now()) * 1000
        }
        // Children are reaped, and stopped at their timeouts, as the loop comes round.
        if launcher.runningCount > 0 {
            let child = launcher.nextDeadline.map { ($0 - MonotonicClock.now()) * 1000 } ?? 100
            wait = min(wait ?? 100, min(child, 100))
        }
        // The app source's reconnection, or a cleared focus to confirm.
        if let due = appTracker?.timeout() { wait = min(wait ?? Double(due), Double(due)) }
        guard let wait else { return -1 }
        return Checked.integer(min(max(wait.rounded(.up), 0), 60_000), as: Int32.self) ?? 0
    }
}
