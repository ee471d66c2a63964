import Glibc
import GestureSystem

/// Every keyboard the engine reads beside its touch devices: the modifiers held
/// now (for `g.modifiers` and the `modifiers` rule option), the time of the
/// last key press, and quiet while typing. The engine polls `fds` with its
/// inputs and calls `handleReadable(fd:)`; hotplug adds with `add(devicePath:)`.
public final class Keyboards {
    public var quiet: TypingQuiet
    public private(set) var readers: [KeyboardReader] = []
    /// The last key press (not a repeat) on any keyboard, on the input clock.
    public private(set) var lastKeyPress: Double?
    private let builtInNames: [String]
    private let report: (String) -> Void

    public init(quiet: TypingQuiet = TypingQuiet(), builtInNames: [String] = [], report: @escaping (String) -> Void) {
        self.quiet = quiet
        self.builtInNames = builtInNames
        self.report = report
    }

    public var fds: [Int32] { readers.map(\.fd) }

    /// The modifiers held on any keyboard.
    public var modifiers: Modifiers { readers.reduce(into: Modifiers()) { $0.formUnion($1.keys.modifiers) } }

    /// Whether a gesture that started at `time` on `surface` is to be ignored.
    public func suppresses(gestureStartingAt time: Double, on surface: TouchSurface) -> Bool {
        quiet.suppresses(gestureStartingAt: time, on: surface)
    }

    /// The `event*` nodes of `directory` that are keyboards, in numeric order.
    public static func scan(_ directory: String) -> [String] {
        var names: [(Int, String)] = []
        for name in Directory.names(in: directory) ?? [] {
            guard name.hasPrefix("event"), let n = Int(name.dropFirst(5)) else { continue }
            names.append((n, name))
        }
        return names.sorted { $0.0 < $1.0 }.map { directory + "/" + $0.1 }
    }

    /// Opens every keyboard in `directory`; others are passed over quietly.
    /// Returns how many were opened.
    @discardableResult
    public func openAll(in directory: String) -> Int {
        Keyboards.scan(directory).filter { add(devicePath: $0, quietly: true) }.count
    }

    /// Opens a keyboard node (hotplug). False when it is not one, or is
    /// gesturemap's own, or cannot be read (said unless `quietly`).
    @discardableResult
    public func add(devicePath path: String, quietly: Bool = false) -> Bool {
        guard !readers.contains(where: { $0.path == path }) else { return false }
        do {
            add(try KeyboardReader(devicePath: path, builtInNames: builtInNames))
            return true
        } catch {
            if case .cannotOpen = error, !quietly { report("keyboard \(error.message)") }
            return false
        }
    }

    public func add(_ reader: KeyboardReader) {
        readers.append(reader)
    }

    /// Reads a keyboard whose descriptor poll() found readable. A keyboard that
    /// ends (a file) or goes away (unplugged) is dropped; its keys no longer count.
    public func handleReadable(fd: Int32) {
        guard let index = readers.firstIndex(where: { $0.fd == fd }) else { return }
        let reader = readers[index]
        switch reader.handleReadable() {
        case .events(let events):
            for event in events { take(event, from: reader) }
        case .closed(let reason):
            // Its held keys are let go, so a modifier does not stay stuck.
            for code in reader.keys.held.sorted() {
                quiet.key(code, pressed: false, at: lastKeyPress ?? 0, builtIn: reader.isBuiltIn)
            }
            readers.remove(at: index)
            if let reason { report("keyboard \(reader.path): \(reason)") }
        }
    }

    private func take(_ event: KeyEvent, from reader: KeyboardReader) {
        switch event.action {
        case .pressed:
            lastKeyPress = max(lastKeyPress ?? event.time, event.time)
            quiet.key(event.code, pressed: true, at: event.time, builtIn: reader.isBuiltIn)
        case .released:
            quiet.key(event.code, pressed: false, at: event.time, builtIn: reader.isBuiltIn)
        case .repeated:
            break
        }
    }
}
