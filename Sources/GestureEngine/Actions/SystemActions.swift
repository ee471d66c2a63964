import GestureActions
import GestureCore
import GestureInput
import GestureScript
import GestureSystem

/// The actions carried out: programs through the launcher, keys and pointer
/// packets through the virtual devices (made at start for rules that use
/// them, else at first use), now or from the loop when a packet must wait its
/// moment (`PacketAgenda`). Nothing here sleeps.
struct SystemActions: ActionSink {
    var makesDevices: Bool { true }

    func exec(_ request: ExecRequest, in engine: Engine) throws(HostActionError) {
        var env = request.environment
        if let gesture = request.gesture {
            for (k, v) in gestureEnvironment(gesture, device: request.deviceName) where env[k] == nil { env[k] = v }
        }
        // The program may write to the same stdout: the lines before it go first.
        engine.output.flush()
        do {
            try engine.launcher.launch(ProcessLauncher.Request(
                argv: request.argv, environment: env, directory: request.directory,
                timeout: request.timeout, origin: request.origin))
        } catch {
            throw .failed(error)
        }
    }

    func key(_ keys: KeyCombo, combo: String, origin: String, in engine: Engine) throws(HostActionError) {
        // Made at first use, the keyboard's first keys wait until the desktop
        // has opened it, from the loop (PacketAgenda).
        var notBefore = -Double.infinity
        if engine.keyboard == nil {
            do {
                engine.keyboard = try VirtualKeyboard()
            } catch {
                engine.console.note("\(origin): " + error.message)
                engine.fail(.unavailable)
                return
            }
            notBefore = MonotonicClock.now() + PacketAgenda.newDeviceSettle
        }
        let events = keys.events.map { VirtualEvent($0.type, $0.code, $0.value) }
        if engine.deliver(events, to: .keyboard, button: nil, notBefore: notBefore, always: true) == .failed {
            throw .failed(KeyPressError.keyboardStopped(combo: combo))
        }
    }

    func send(_ events: [VirtualEvent], to target: PacketAgenda.Target, origin: String?,
              button: (PointerButton, down: Bool)?, always: Bool, in engine: Engine) throws(HostActionError) -> Bool {
        guard !events.isEmpty else { return true }
        guard let origin else {
            _ = engine.deliver(events, to: target, button: button, always: true)
            return true
        }
        let device = Engine.device(target)
        var notBefore = -Double.infinity
        if engine.effects.pointer[keyPath: device] == nil {
            do {
                engine.effects.pointer[keyPath: device] = try Engine.makeDevice(target)
            } catch {
                engine.console.note("\(origin): " + error.message)
                engine.fail(.unavailable)
                return false
            }
            notBefore = MonotonicClock.now() + PacketAgenda.newDeviceSettle
        }
        switch engine.deliver(events, to: target, button: button, notBefore: notBefore, always: always || button?.down == false) {
        case .sent, .queued:
            return true
        case .full:
            if !engine.effects.agendaTroubleSaid {
                engine.effects.agendaTroubleSaid = true
                engine.console.note("\(origin): \(PacketAgenda.capacity) pointer packets are waiting to go out already (a click's presses go 30 ms apart); the rest are dropped until they have gone (said once)")
            }
            return false
        case .failed:
            throw .failed(UinputAccessError.stopped(target.user, reason: nil))
        }
    }
}
