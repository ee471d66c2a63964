/// One key event from a keyboard, on the input clock.
public struct KeyEvent: Equatable, Sendable {
    public enum Action: Equatable, Sendable { case pressed, released, repeated }
    public var code: UInt16
    public var action: Action
    public var time: Double

    public init(code: UInt16, action: Action, time: Double) {
        self.code = code
        self.action = action
        self.time = time
    }
}

/// The keys one keyboard holds down, kept from EV_KEY events (and EVIOCGKEY at
/// start or after the kernel dropped events).
public struct KeyState: Equatable, Sendable {
    public private(set) var held: Set<UInt16> = []

    public init(held: Set<UInt16> = []) { self.held = held }

    public var modifiers: Modifiers {
        held.reduce(into: Modifiers()) { result, code in
            if let m = Modifiers(keyCode: code) { result.insert(m) }
        }
    }

    /// Applies an EV_KEY value (1 down, 0 up, 2 autorepeat); returns what
    /// happened, nil for a release of a key that was not down or a bad value.
    public mutating func apply(code: UInt16, value: Int32, time: Double) -> KeyEvent? {
        switch value {
        case 1:
            held.insert(code)
            return KeyEvent(code: code, action: .pressed, time: time)
        case 0:
            guard held.remove(code) != nil else { return nil }
            return KeyEvent(code: code, action: .released, time: time)
        case 2:
            // A repeat of a key whose press was missed still says it is down.
            held.insert(code)
            return KeyEvent(code: code, action: .repeated, time: time)
        default:
            return nil
        }
    }

    /// Takes the kernel's bitmap as the truth; returns the releases and presses
    /// that it implies, so the quiet-while-typing policy sees them too.
    public mutating func resync(bitmap: [UInt8], time: Double) -> [KeyEvent] {
        var now: Set<UInt16> = []
        for (i, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { now.insert(UInt16(i * 8 + bit)) }
        }
        let released = held.subtracting(now).sorted().map { KeyEvent(code: $0, action: .released, time: time) }
        let pressed = now.subtracting(held).sorted().map { KeyEvent(code: $0, action: .pressed, time: time) }
        held = now
        return released + pressed
    }
}
