import GestureActions
import GestureSystem
import GestureCore
import GestureScript

/// The rules' side effects: programs and keys. `--dry-run` turns both into
/// JSON lines on stdout instead.
extension Engine {
    public func exec(_ request: ExecRequest) throws(HostActionError) {
        if options.dryRun {
            var json = JSONWriter()
            json.raw("{\"action\":\"exec\",\"t\":")
            json.time(request.gesture?.time ?? runtime.clock)
            json.raw(",\"argv\":[")
            for (i, arg) in request.argv.enumerated() {
                if i > 0 { json.byte(0x2C) }
                json.string(arg)
            }
            json.raw("]}")
            write(line: json.text)
            return
        }
        var env = request.environment
        if let gesture = request.gesture {
            for (k, v) in gestureEnvironment(gesture, device: request.deviceName) where env[k] == nil { env[k] = v }
        }
        // The program may write to the same stdout: the lines before it go first.
        output.flush()
        do {
            try launcher.launch(ProcessLauncher.Request(
                argv: request.argv, environment: env, directory: request.directory,
                timeout: request.timeout, origin: request.origin))
        } catch {
            throw .failed(error)
        }
    }

    public func key(_ combo: String, origin: String) throws(HostActionError) {
        let keys: KeyCombo
        switch KeyCombo.parse(combo) {
        case .success(let k): keys = k
        case .failure(let error): throw .failed(KeyPressError.combo(error))
        }
        let t = runtime.clock
        if options.dryRun {
            for e in keys.events where e.type == 1 {
                var json = JSONWriter()
                json.raw("{\"action\":\"key\",\"t\":")
                json.time(t)
                json.raw(",\"key\":")
                json.string(KeyCombo.name(of: e.code) ?? String(e.code))
                json.raw(",\"value\":")
                json.integer(Int64(e.value))
                json.byte(0x7D)
                write(line: json.text)
            }
            return
        }
        // Made at first use, the keyboard's first keys wait until the desktop
        // has opened it, from the loop (PacketAgenda); nothing sleeps.
        var notBefore = -Double.infinity
        if keyboard == nil {
            do {
                keyboard = try VirtualKeyboard()
            } catch {
                console.say("gesturemap: \(origin): " + error.message)
                fatal = .unavailable
                return
            }
            notBefore = MonotonicClock.now() + PacketAgenda.newDeviceSettle
        }
        let events = keys.events.map { VirtualEvent($0.type, $0.code, $0.value) }
        if deliver(events, to: .keyboard, button: nil, notBefore: notBefore, always: true) == .failed {
            throw .failed(KeyPressError.keyboardStopped(combo: combo))
        }
    }

    /// Rules that call key() get the virtual keyboard before any gesture, so
    /// the desktop has opened it by the first key. Made at first use instead,
    /// a key typed at once never reached the desktop. At start a keyboard
    /// that cannot be made stops the run, as the first key() would.
    func makeKeyboardIfCalled(atStart: Bool) -> ExitCode? {
        guard !options.dryRun, keyboard == nil, let call = runtime.firstCall(ofGlobal: "key") else { return nil }
        do {
            keyboard = try VirtualKeyboard()
        } catch {
            console.say("gesturemap: \(call.file):\(call.line): " + error.message)
            return atStart ? .unavailable : nil
        }
        if options.verbose { console.say("gesturemap: made the virtual keyboard (\(call.file):\(call.line) calls key())") }
        return nil
    }
}
