import Glibc
import GestureContext
import GestureInput

/// The keyboards a run reads beside its touch inputs: the machine's own (live
/// devices, found and hotplugged like the touch devices) or `--keyboard PATH`
/// recordings (files and FIFOs of `struct input_event`, for tests and replays).
///
/// Key events are taken in the input's time order with the touch frames: each
/// one waits in its keyboard's queue until the touch input's time reaches it, so a replay
/// from files sees the keys held at each gesture exactly as they were, and a
/// live keyboard (on the same monotonic clock as live touch devices) the same.
final class KeyInputs {
    /// One keyboard and the keys held on it as of the time applied so far.
    final class Keyboard {
        let reader: KeyboardReader
        var keys = KeyState()
        var isOpen = true
        /// Its events read but not yet reached by the touch input's time, in order.
        var waiting = KeyQueue()
        /// A recording in a regular file: its end is the end of the record, not
        /// the keys being let go.
        let isFile: Bool
        var saidTimeWentBack = false

        init(_ reader: KeyboardReader, isFile: Bool = false) {
            self.reader = reader
            self.isFile = isFile
            // A live keyboard starts from what the kernel says is held (EVIOCGKEY).
            if reader.isLive { keys = reader.keys }
        }
    }

    private(set) var keyboards: [Keyboard] = []
    /// Numbers the events as they are read: equal times keep that order across keyboards.
    private var arrivals = 0
    /// The time applied so far: events older than it are applied as they arrive.
    private var appliedUpTo = -Double.infinity
    private(set) var quiet: TypingQuiet
    private let report: (String) -> Void
    /// The escape chord (sharing's way out), pressed on any keyboard, as it came.
    var onEscapeChord: (() -> Void)?
    private var escape = EscapeChord()

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
    func open(_ path: String) throws(KeyboardOpenError) {
        if InputFile.isCharacterDevice(path) {
            do {
                add(try KeyboardReader(devicePath: path, builtInNames: []))
                return
            } catch {
                throw .device(error)
            }
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .file(path: path, errno: errno) }
        let identity = KeyboardIdentity(name: path)
        var info = stat()
        let isFile = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let keyboard = add(KeyboardReader(fd: fd, path: path, identity: identity, builtIn: true), isFile: isFile)
        if isFile {
            // To its end, here: a regular file never makes the loop wait.
            while keyboard.isOpen { read(keyboard) }
        }
    }

    /// The machine's keyboards in `directory` (live runs); others pass quietly.
    func openAll(in directory: String) {
        for name in DeviceScanner.nodeNames(in: directory) { _ = addDevice(directory + "/" + name) }
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
            for event in events {
                if let onEscapeChord, escape.key(event) { onEscapeChord() }
                enqueue(event, from: keyboard)
            }
        case .closed(let reason):
            keyboard.isOpen = false
            if let reason { report("keyboard \(keyboard.reader.path): \(reason)") }
            guard !keyboard.isFile else { return }
            // A keyboard unplugged, or a FIFO closed: its keys are let go now
            // (after its last event), so no modifier stays stuck.
            let last = max(keyboard.waiting.last?.time ?? appliedUpTo, appliedUpTo)
            for code in keyboard.keys.held.union(pendingHeld(keyboard)).sorted() {
                enqueue(KeyEvent(code: code, action: .released, time: last.isFinite ? last : 0), from: keyboard)
            }
        }
    }

    /// Keys pressed in events still pending, which the release at the end must undo too.
    private func pendingHeld(_ keyboard: Keyboard) -> Set<UInt16> {
        var held = Set<UInt16>()
        for event in keyboard.waiting.events {
            if event.action == .released { held.remove(event.code) } else { held.insert(event.code) }
        }
        return held
    }

    private func enqueue(_ event: KeyEvent, from keyboard: Keyboard) {
        var event = event
        // A keyboard's own time never goes back: an event stamped earlier than
        // the one before it (a hostile or broken recording) takes that time,
        // so each queue stays in order and the merge stays linear.
        if let last = keyboard.waiting.last?.time, event.time < last {
            event.time = last
            if !keyboard.saidTimeWentBack {
                keyboard.saidTimeWentBack = true
                report("keyboard \(keyboard.reader.path): its time went back; its events are taken in the order they came")
            }
        }
        if event.time <= appliedUpTo && keyboard.waiting.isEmpty {
            apply(event, to: keyboard)
            return
        }
        arrivals += 1
        keyboard.waiting.append(event, arrival: arrivals)
        // A keyboard that floods while no touch comes (a uinput device typing
        // as fast as it can) would grow its queue without end; past the cap
        // its oldest events take effect now, ahead of the touches' time.
        while keyboard.waiting.count > KeyInputs.longestQueue, let oldest = keyboard.waiting.removeFirst() {
            apply(oldest, to: keyboard)
        }
    }

    /// Key events one keyboard may hold waiting for the touches' time: far more
    /// than a person types between two touch frames.
    static let longestQueue = 4096

    /// The touch input reached `time`: every key event up to it takes effect,
    /// in time order across the keyboards (a merge of their queues).
    func advance(to time: Double) {
        guard time > appliedUpTo else { return }
        appliedUpTo = time
        while true {
            var next: Keyboard?
            for keyboard in keyboards {
                guard let head = keyboard.waiting.first, head.event.time <= time else { continue }
                if let best = next?.waiting.first, (best.event.time, best.arrival) <= (head.event.time, head.arrival) { continue }
                next = keyboard
            }
            guard let keyboard = next, let head = keyboard.waiting.removeFirst() else { return }
            apply(head, to: keyboard)
        }
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

/// Why a `--keyboard` input could not be opened.
enum KeyboardOpenError: Error, Equatable, CustomStringConvertible {
    case device(KeyboardReader.OpenError)
    /// A file or FIFO that open(2) refused with `errno`.
    case file(path: String, errno: Int32)

    var description: String {
        switch self {
        case .device(let error): return "--keyboard \(error.message)"
        case let .file(path, code):
            let why = code == ENOENT ? "no such file; give a keyboard device or a file of its input_event records" : String(cString: strerror(code))
            return "--keyboard \(path): \(why)"
        }
    }
}

/// One keyboard's events waiting for their time, oldest first: appended at the
/// back, taken from the front, each in O(1) amortized.
struct KeyQueue {
    private var storage: [(event: KeyEvent, arrival: Int)] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: (event: KeyEvent, arrival: Int)? { isEmpty ? nil : storage[head] }
    var last: KeyEvent? { isEmpty ? nil : storage[storage.count - 1].event }
    var events: some Sequence<KeyEvent> { storage[head...].lazy.map(\.event) }

    mutating func append(_ event: KeyEvent, arrival: Int) {
        storage.append((event, arrival))
    }

    mutating func removeFirst() -> KeyEvent? {
        guard !isEmpty else { return nil }
        let event = storage[head].event
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 4096 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return event
    }
}
