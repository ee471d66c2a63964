#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureContext

/// The keyboards a run reads beside its touch inputs: the machine's own (live
/// devices, found and hotplugged like the touch devices) or `--keyboard PATH`
/// recordings (files and FIFOs of `struct input_event`, for tests and replays).
///
/// Key events are taken in the input's time order with the touch frames: each
/// one waits in `pending` until the touch input's time reaches it, so a replay
/// from files sees the keys held at each gesture exactly as they were, and a
/// live keyboard (on the same monotonic clock as live touch devices) the same.
final class KeyInputs {
    /// One keyboard and the keys held on it as of the time applied so far.
    final class Keyboard {
        let reader: KeyboardReader
        var keys = KeyState()
        var isOpen = true
        /// A recording in a regular file: its end is the end of the record, not
        /// the keys being let go.
        let isFile: Bool

        init(_ reader: KeyboardReader, isFile: Bool = false) {
            self.reader = reader
            self.isFile = isFile
            // A live keyboard starts from what the kernel says is held (EVIOCGKEY).
            if reader.isLive { keys = reader.keys }
        }
    }

    private(set) var keyboards: [Keyboard] = []
    /// Key events read but not yet reached by the touch input's time, in time order.
    private var pending: [(event: KeyEvent, keyboard: Keyboard)] = []
    /// The time applied so far: events older than it are applied as they arrive.
    private var appliedUpTo = -Double.infinity
    private(set) var quiet: TypingQuiet
    private let report: (String) -> Void

    init(quietFor duration: Double, report: @escaping (String) -> Void) {
        quiet = TypingQuiet(duration: duration)
        self.report = report
    }

    var isEmpty: Bool { keyboards.isEmpty }
    /// A keyboard is still open (a FIFO, a device): the run reads it in its loop.
    var waitsForInput: Bool { keyboards.contains { $0.isOpen } }

    /// The modifiers held on any keyboard, as of the time applied so far.
    var modifiers: Modifiers {
        keyboards.reduce(into: Modifiers()) { $0.formUnion($1.keys.modifiers) }
    }

    /// `config{ typing_quiet = ... }`: seconds, 0 for off.
    func setQuiet(_ duration: Double) {
        guard duration != quiet.duration else { return }
        quiet.duration = duration
    }

    /// Whether a touch that lands at `time` on a touchpad is ignored.
    func quiets(touchpadTouchAt time: Double) -> Bool {
        quiet.suppresses(gestureStartingAt: time, on: .touchpad)
    }

    // MARK: Opening

    /// `--keyboard PATH`: a device node, or a file or FIFO of input_event records
    /// (counted as a built-in keyboard, so it quiets a touchpad). Regular files
    /// are read whole at once: their keys are all known before the first frame.
    func open(_ path: String) -> String? {
        if InputFile.isCharacterDevice(path) {
            do {
                add(try KeyboardReader(devicePath: path, builtInNames: []))
                return nil
            } catch {
                return "--keyboard \(error.message)"
            }
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let why = errno == ENOENT ? "no such file; give a keyboard device or a file of its input_event records" : String(cString: strerror(errno))
            return "--keyboard \(path): \(why)"
        }
        let identity = KeyboardIdentity(name: path)
        var info = stat()
        let isFile = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let keyboard = add(KeyboardReader(fd: fd, path: path, identity: identity, builtIn: true), isFile: isFile)
        if isFile {
            // To its end (each read takes all there is, the next one the end):
            // a regular file never makes the loop wait.
            for _ in 0..<3 where keyboard.isOpen { read(keyboard) }
        }
        return nil
    }

    /// The machine's keyboards in `directory` (live runs); others pass quietly.
    func openAll(in directory: String) {
        for path in Keyboards.scan(directory) { _ = addDevice(path) }
    }

    /// A node that appeared (hotplug): opened when it is a keyboard, and not
    /// gesturemap's own virtual keyboard. True when it was opened.
    @discardableResult
    func addDevice(_ path: String) -> Bool {
        guard !keyboards.contains(where: { $0.isOpen && $0.reader.path == path }) else { return false }
        guard let reader = try? KeyboardReader(devicePath: path, builtInNames: []) else { return false }
        add(reader)
        return true
    }

    @discardableResult
    private func add(_ reader: KeyboardReader, isFile: Bool = false) -> Keyboard {
        let keyboard = Keyboard(reader, isFile: isFile)
        keyboards.removeAll { !$0.isOpen && $0.reader.path == reader.path }
        keyboards.append(keyboard)
        return keyboard
    }

    // MARK: Reading

    /// Descriptors to poll, with their keyboards.
    var pollable: [Keyboard] { keyboards.filter { $0.isOpen } }

    /// Reads a keyboard poll() found readable; its events wait for their time.
    func read(_ keyboard: Keyboard) {
        switch keyboard.reader.handleReadable() {
        case .events(let events):
            for event in events { enqueue(event, from: keyboard) }
        case .closed(let reason):
            keyboard.isOpen = false
            if let reason { report("gesturemap: keyboard \(keyboard.reader.path): \(reason)") }
            guard !keyboard.isFile else { return }
            // A keyboard unplugged, or a FIFO closed: its keys are let go now
            // (after its last event), so no modifier stays stuck.
            let last = max(pending.last(where: { $0.keyboard === keyboard })?.event.time ?? appliedUpTo, appliedUpTo)
            for code in keyboard.keys.held.union(pendingHeld(keyboard)).sorted() {
                enqueue(KeyEvent(code: code, action: .released, time: last.isFinite ? last : 0), from: keyboard)
            }
        }
    }

    /// Keys pressed in events still pending, which the release at the end must undo too.
    private func pendingHeld(_ keyboard: Keyboard) -> Set<UInt16> {
        var held = Set<UInt16>()
        for entry in pending where entry.keyboard === keyboard {
            if entry.event.action == .released { held.remove(entry.event.code) } else { held.insert(entry.event.code) }
        }
        return held
    }

    private func enqueue(_ event: KeyEvent, from keyboard: Keyboard) {
        if event.time <= appliedUpTo {
            apply(event, to: keyboard)
            return
        }
        // Each keyboard's events come in order; several keyboards interleave.
        var index = pending.count
        while index > 0 && pending[index - 1].event.time > event.time { index -= 1 }
        pending.insert((event, keyboard), at: index)
    }

    /// The touch input reached `time`: every key event up to it takes effect, in order.
    func advance(to time: Double) {
        guard time > appliedUpTo else { return }
        appliedUpTo = time
        guard let first = pending.first, first.event.time <= time else { return }
        var taken = 0
        while taken < pending.count, pending[taken].event.time <= time {
            apply(pending[taken].event, to: pending[taken].keyboard)
            taken += 1
        }
        pending.removeFirst(taken)
    }

    /// Whether a modifier went down or up since the last call.
    func takeModifierChange() -> Bool {
        defer { modifierChanged = false }
        return modifierChanged
    }
    private var modifierChanged = false

    private func apply(_ event: KeyEvent, to keyboard: Keyboard) {
        let value: Int32
        switch event.action {
        case .pressed: value = 1
        case .released: value = 0
        case .repeated: value = 2
        }
        guard let applied = keyboard.keys.apply(code: event.code, value: value, time: event.time) else { return }
        if Modifiers(keyCode: event.code) != nil { modifierChanged = true }
        switch applied.action {
        case .pressed: quiet.key(event.code, pressed: true, at: event.time, builtIn: keyboard.reader.isBuiltIn)
        case .released: quiet.key(event.code, pressed: false, at: event.time, builtIn: keyboard.reader.isBuiltIn)
        case .repeated: break
        }
    }
}
