import GestureActions
import GestureSystem
import GestureCore
import GestureScript

/// The rules' side effects: programs and keys, carried out by the run's
/// action sink (the system, or `--dry-run`'s JSON lines).
extension Engine {
    public func exec(_ request: ExecRequest) throws(HostActionError) {
        try sink.exec(request, in: self)
    }

    public func key(_ combo: String, origin: String) throws(HostActionError) {
        switch KeyCombo.parse(combo) {
        case .success(let keys): try sink.key(keys, combo: combo, origin: origin, in: self)
        case .failure(let error): throw .failed(KeyPressError.combo(error))
        }
    }

    /// Rules that call key() get the virtual keyboard before any gesture, so
    /// the desktop has opened it by the first key. Made at first use instead,
    /// a key typed at once never reached the desktop. At start a keyboard
    /// that cannot be made stops the run, as the first key() would.
    func makeKeyboardIfCalled(atStart: Bool) -> ExitCode? {
        guard sink.makesDevices, keyboard == nil, let call = runtime.firstCall(ofGlobal: "key") else { return nil }
        do {
            keyboard = try VirtualKeyboard()
        } catch {
            console.note("\(call.file):\(call.line): " + error.message)
            return atStart ? .unavailable : nil
        }
        if options.verbose { console.note("made the virtual keyboard (\(call.file):\(call.line) calls key())") }
        return nil
    }
}
