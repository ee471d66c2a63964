import GestureContext
import GestureCore
import GestureInput
import GestureSystem

/// Keyboards in the engine's loop: the modifiers held go to the rules (g.modifiers,
/// the `modifiers` option), and typing quiets the touchpads.
extension Engine {
    /// Opens the keyboards the run reads: those given with --keyboard, else the
    /// machine's own when the touch input is live devices. An exit status when
    /// a --keyboard cannot be opened.
    func startKeyboards(live: Bool) -> ExitCode? {
        guard options.readsKeyboards, !options.keyboards.isEmpty || live else { return nil }
        let keys = KeyInputs(quietFor: runtime.thresholds[.typingQuiet],
                             report: { [console] in console.note($0) })
        if options.keyboards.isEmpty {
            keys.openAll(in: DeviceScanner.directory)
            if options.verbose { console.note("reading \(keys.keyboards.count) keyboard\(keys.keyboards.count == 1 ? "" : "s") for held keys and quiet while typing") }
        } else {
            for path in options.keyboards {
                do {
                    try keys.open(path)
                } catch {
                    console.note("\(error)")
                    return .noInput
                }
            }
        }
        lanes.keyboards = keys
        // A live keyboard may hold keys already (EVIOCGKEY).
        _ = keys.takeModifierChange()
        runtime.setModifiers(keys.modifiers)
        tellMiceModifiers()
        return nil
    }

    /// Key events up to `time` take effect; the rules hear of a change in the
    /// modifiers held.
    func advanceKeys(to time: Double) {
        guard let keys = lanes.keyboards else { return }
        keys.advance(to: time)
        noteModifiers(at: time)
    }

    /// After the loop read the keyboards. With a shared mouse the keys take
    /// effect as read: a mouse has no touch time for them to wait for, and a
    /// stroke or chord rule with `modifiers` is bound on the mouse's gate only
    /// while they are held (its button is held back for it then).
    func keyboardsRead() {
        if lanes.shared.contains(where: { $0.share?.isMouse == true }) {
            advanceKeys(to: MonotonicClock.now())
        } else {
            noteModifiers(at: nil)
        }
        tellMiceModifiers()
    }

    func noteModifiers(at time: Double?) {
        guard let keys = lanes.keyboards, keys.takeModifierChange() else { return }
        let held = keys.modifiers
        guard held != runtime.context.modifiers else { return }
        runtime.setModifiers(held)
        if options.trace != nil {
            let names = held.names.isEmpty ? "none" : held.names.joined(separator: "+")
            let t = time.map { "\"t\":\(Self.formatTime($0))," } ?? ""
            sayTrace(text: (time.map { "t=\(Self.formatTime($0)) " } ?? "") + "modifiers held: " + names,
                     json: "{\(t)\"type\":\"modifiers\",\"held\":[\(held.names.map { "\"\($0)\"" }.joined(separator: ","))]}")
        }
    }

    /// A frame on a touchpad without the touches that landed while typing.
    func quietWhileTyping(_ frame: TouchFrame, _ keys: KeyInputs) -> TouchFrame {
        guard let lane = lanes.lane(frame.device), lane.isTouchpad else { return frame }
        // Most frames: nothing lands and nothing is being left out.
        if !lane.ignoringTyping, !frame.touches.contains(where: { $0.phase == .began }) { return frame }
        var ignored: [Int] = []
        var filter = lane.typingFilter
        let out = filter.filter(frame, quiets: { keys.quiets(touchpadTouchAt: $0) }, newlyIgnored: &ignored)
        lane.typingFilter = filter
        lane.ignoringTyping = !filter.ignored.isEmpty
        if options.trace != nil {
            for id in ignored {
                sayTrace(text: "t=\(Self.formatTime(frame.time)) touch \(id) ignored: it landed on a touchpad while typing (typing_quiet)",
                         json: "{\"t\":\(Self.formatTime(frame.time)),\"device\":\(frame.device),\"type\":\"ignored\",\"touch\":\(id),\"key\":\"typing_quiet\"}")
            }
        }
        return out
    }

    /// Whether an input is a touchpad (typing quiets it) or a touchscreen: as
    /// --surface says, else as a live device says; an input that does not say
    /// (NDJSON, a pipe) counts as a touchscreen, which typing never quiets.
    func noteSurface(index: Int, name: String, device: InputDevice?) {
        let surface = options.surface(for: name) ?? device.map { $0.description.isTouchscreen ? .touchscreen : .touchpad } ?? .touchscreen
        lanes.make(index).isTouchpad = surface == .touchpad
    }

    static func formatTime(_ t: Double) -> String {
        var json = JSONWriter()
        json.time(t)
        return json.text
    }
}
