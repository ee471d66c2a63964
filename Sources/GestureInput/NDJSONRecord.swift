import GestureCore

/// One line of the native format, parsed.
public enum NDJSONRecord: Equatable, Sendable {
    case event(kind: TouchEventKind, time: Double, id: Int, x: Double?, y: Double?)
    /// A down or move with `"tool": "palm"` (an extension): the contact is a
    /// palm, ignored until it lifts (cancelled if it was down).
    case palm(time: Double, id: Int)
    /// A mouse's press, release, motion or wheel (an extension): for the
    /// stroke gate, as a recorded mouse's packets are.
    case mouse(time: Double, MouseLine)
    case device(DeviceInfo)
    case blank
    case invalid(String)
}

/// The keys the native format gives meaning to.
enum NativeKey {
    case t, x, y, ev, id, device, tool, other
}

extension JSONScanner {
    /// Compares raw bytes; only a key written with escapes (rare) is decoded first.
    @inline(__always)
    func nativeKey(_ range: Range<Int>, escaped: Bool) -> NativeKey {
        if escaped {
            switch decode(range, escaped: true) {
            case "t": return .t
            case "x": return .x
            case "y": return .y
            case "ev": return .ev
            case "id": return .id
            case "device": return .device
            case "tool": return .tool
            default: return .other
            }
        }
        let first = range.isEmpty ? 0 : bytes[range.lowerBound]
        switch range.count {
        case 1:
            switch first {
            case 0x74: return .t
            case 0x78: return .x
            case 0x79: return .y
            default: return .other
            }
        case 2:
            let second = bytes[range.lowerBound + 1]
            if first == 0x65 && second == 0x76 { return .ev }
            if first == 0x69 && second == 0x64 { return .id }
            return .other
        case 4:
            return equals(range, "tool") ? .tool : .other
        case 6:
            return equals(range, "device") ? .device : .other
        default:
            return .other
        }
    }
}

/// Reads one NDJSON line into a record, with a message for people when it is not one.
enum NDJSONLineParser {
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> NDJSONRecord {
        var s = JSONScanner(line)
        s.skipWhitespace()
        if s.atEnd { return .blank }
        guard s.current == 0x7B else { return .invalid("not a JSON object; each line must be one object such as {\"t\": 0.0, \"ev\": \"down\", \"id\": 1, \"x\": 10, \"y\": 20}") }
        s.pos += 1

        var time: Double?
        var kindRange: Range<Int>?
        var kindEscaped = false
        var id: Double?
        var x: Double?
        var y: Double?
        var device: DeviceInfo?
        var palm = false
        var problem: String?
        var mouse = MouseFields()

        if !s.consume(0x7D) {
            repeat {
                guard let (key, keyEscaped) = s.readString() else { return invalid(s) }
                guard s.consume(0x3A) else { _ = s.fail("expected ':' after a key"); return invalid(s) }
                s.skipWhitespace()
                switch s.nativeKey(key, escaped: keyEscaped) {
                case .t:
                    guard let v = number(&s, name: "t", problem: &problem) else { if s.failed { return invalid(s) }; break }
                    time = v
                case .x:
                    if s.readNull() { x = nil; break }
                    guard let v = number(&s, name: "x", problem: &problem) else { if s.failed { return invalid(s) }; break }
                    x = v
                case .y:
                    if s.readNull() { y = nil; break }
                    guard let v = number(&s, name: "y", problem: &problem) else { if s.failed { return invalid(s) }; break }
                    y = v
                case .ev:
                    guard s.current == 0x22 else {
                        problem = problem ?? "\"ev\" must be a string: down, move, up, cancel, sync or click"
                        guard s.skipValue() else { return invalid(s) }
                        break
                    }
                    guard let (range, escaped) = s.readString() else { return invalid(s) }
                    kindRange = range
                    kindEscaped = escaped
                case .id:
                    guard let v = number(&s, name: "id", problem: &problem) else { if s.failed { return invalid(s) }; break }
                    id = v
                case .tool:
                    guard s.current == 0x22, let (range, escaped) = s.readString() else {
                        if s.failed { return invalid(s) }
                        problem = problem ?? "\"tool\" must be \"finger\" or \"palm\""
                        guard s.skipValue() else { return invalid(s) }
                        break
                    }
                    switch s.decode(range, escaped: escaped) {
                    case "palm": palm = true
                    case "finger": palm = false
                    default: problem = problem ?? "\"tool\" must be \"finger\" or \"palm\""
                    }
                case .device:
                    guard let info = DeviceHeaderParser.parse(&s, problem: &problem) else {
                        if s.failed { return invalid(s) }
                        break
                    }
                    device = info
                case .other:
                    if let field = MouseFields.field(s, key) {
                        guard mouse.read(field, &s, problem: &problem) else { return invalid(s) }
                        break
                    }
                    guard s.skipValue() else { return invalid(s) }
                }
            } while s.consume(0x2C)
            guard s.consume(0x7D) else { _ = s.fail("expected ',' or '}'"); return invalid(s) }
        }
        s.skipWhitespace()
        guard s.atEnd else { _ = s.fail("unexpected text after the object"); return invalid(s) }
        if let problem { return .invalid(problem) }

        if let device, kindRange == nil, time == nil { return .device(device) }
        guard let time else { return .invalid("missing \"t\" (seconds); every event needs a time") }
        if case .failure(let problem) = NDJSONRecord.checked(time: time) { return .invalid(problem.message) }
        guard let kindRange else { return .invalid("missing \"ev\"; use one of \(allKinds)") }
        guard let kind = eventKind(s, kindRange, escaped: kindEscaped) else {
            let text = s.decode(kindRange, escaped: kindEscaped)
            if MouseLine.kinds.contains(text) {
                switch MouseLine.make(kind: text, button: mouse.button, dx: mouse.dx, dy: mouse.dy, dir: mouse.dir) {
                case .success(let line): return .mouse(time: time, line)
                case .failure(let problem): return .invalid(problem.message)
                }
            }
            return .invalid("unknown \"ev\" value \"\(TerminalText.escaped(String(text.prefix(40))))\"; use one of \(allKinds)")
        }
        return NDJSONRecord.event(kind, time: time, id: id, x: x, y: y, palm: palm)
    }

    static let allKinds = "down, move, up, cancel, sync, click, or a mouse's press, release, motion, wheel"

    private static func invalid(_ s: JSONScanner) -> NDJSONRecord {
        .invalid("invalid JSON: \(s.error ?? "syntax error")")
    }

    private static func number(_ s: inout JSONScanner, name: StaticString, problem: inout String?) -> Double? {
        let c = s.current
        if c == 0x2D || (c >= 0x30 && c <= 0x39) { return s.readNumber() }
        problem = problem ?? "\"\(name)\" must be a number"
        _ = s.skipValue()
        return nil
    }

    private static func eventKind(_ s: JSONScanner, _ range: Range<Int>, escaped: Bool) -> TouchEventKind? {
        if escaped {
            switch s.decode(range, escaped: true) {
            case "down": return .down
            case "move": return .move
            case "up": return .up
            case "cancel": return .cancel
            case "sync": return .sync
            case "click": return .click
            default: return nil
            }
        }
        if s.equals(range, "move") { return .move }
        if s.equals(range, "down") { return .down }
        if s.equals(range, "up") { return .up }
        if s.equals(range, "sync") { return .sync }
        if s.equals(range, "cancel") { return .cancel }
        if s.equals(range, "click") { return .click }
        return nil
    }

    static func name(of kind: TouchEventKind) -> String {
        switch kind {
        case .down: return "down"
        case .move: return "move"
        case .up: return "up"
        case .cancel: return "cancel"
        case .sync: return "sync"
        case .click: return "click"
        }
    }
}

/// `{"device": {"name": ..., "x": {"min", "max", "resolution"}, "y": {...}}}`
enum DeviceHeaderParser {
    static func parse(_ s: inout JSONScanner, problem: inout String?) -> DeviceInfo? {
        guard s.consume(0x7B) else {
            problem = problem ?? "\"device\" must be an object with \"name\", \"x\" and \"y\""
            _ = s.skipValue()
            return nil
        }
        var info = DeviceInfo()
        if s.consume(0x7D) { return info }
        repeat {
            guard let (key, _) = s.readString() else { return nil }
            guard s.consume(0x3A) else { _ = s.fail("expected ':' after a key"); return nil }
            s.skipWhitespace()
            if s.equals(key, "name"), s.current == 0x22 {
                guard let name = s.readDecodedString() else { return nil }
                info.name = name
            } else if s.equals(key, "x") || s.equals(key, "y") {
                let isX = s.equals(key, "x")
                guard let axis = parseAxis(&s, name: isX ? "x" : "y", problem: &problem) else {
                    if s.failed { return nil }
                    continue
                }
                if isX { info.x = axis } else { info.y = axis }
            } else {
                guard s.skipValue() else { return nil }
            }
        } while s.consume(0x2C)
        guard s.consume(0x7D) else { _ = s.fail("expected ',' or '}'"); return nil }
        return info
    }

    private static func parseAxis(_ s: inout JSONScanner, name: String, problem: inout String?) -> AxisInfo? {
        guard s.consume(0x7B) else {
            problem = problem ?? "device axis \"\(name)\" must be an object such as {\"min\": 0, \"max\": 4095, \"resolution\": 16}"
            _ = s.skipValue()
            return nil
        }
        var axis = AxisInfo()
        if s.consume(0x7D) { return axis }
        repeat {
            guard let (key, _) = s.readString() else { return nil }
            guard s.consume(0x3A) else { _ = s.fail("expected ':' after a key"); return nil }
            s.skipWhitespace()
            let field: String? = s.equals(key, "min") ? "min" : s.equals(key, "max") ? "max" : s.equals(key, "resolution") ? "resolution" : nil
            guard let field else {
                guard s.skipValue() else { return nil }
                continue
            }
            if s.readNull() { continue }
            let c = s.current
            guard c == 0x2D || (c >= 0x30 && c <= 0x39) else {
                problem = problem ?? "device axis \"\(name)\" field \"\(field)\" must be a number"
                guard s.skipValue() else { return nil }
                continue
            }
            guard let v = s.readNumber() else { return nil }
            switch field {
            case "min", "max":
                guard InputLimits.units(v) != nil else {
                    problem = problem ?? "device axis \"\(name)\" field \"\(field)\" is out of range: \(v); device units must be within ±\(InputLimits.maxWholeUnits)"
                    continue
                }
                if field == "min" { axis.minimum = v } else { axis.maximum = v }
            default:
                if v < 0 { problem = problem ?? "device axis \"\(name)\" resolution must not be negative" }
                // 0 means unknown, as in evdev's absinfo.
                if v > 0, InputLimits.unitsPerMillimetre(v) == nil {
                    problem = problem ?? "device axis \"\(name)\" resolution is out of range: \(v); give units per millimetre from \(InputLimits.resolution.lowerBound) to 1000000, or 0 for unknown"
                }
                axis.resolution = v
            }
        } while s.consume(0x2C)
        guard s.consume(0x7D) else { _ = s.fail("expected ',' or '}'"); return nil }
        return axis
    }
}

extension NDJSONRecord {
    /// A touch event as a line states it, checked as a line's is: the same
    /// messages whether it came as text or from a program (a phone's page).
    public static func event(_ kind: TouchEventKind, time stated: Double, id: Double?, x: Double?, y: Double?, palm: Bool = false) -> NDJSONRecord {
        let time: Double
        switch checked(time: stated) {
        case .success(let t): time = t
        case .failure(let problem): return .invalid(problem.message)
        }
        // Neither is a touch's: a frame's end, and the surface's button.
        if kind == .sync || kind == .click { return .event(kind: kind, time: time, id: 0, x: nil, y: nil) }
        guard let id else { return .invalid("missing \"id\" on a \"\(NDJSONLineParser.name(of: kind))\" event; every touch event needs the touch's integer id") }
        // Beyond 2^53 a JSON number no longer names one integer.
        guard abs(id) < 9.0e15, let id = Checked.exactInteger(id, as: Int.self) else { return .invalid("\"id\" must be an integer, not \(id)") }
        if kind == .down, x == nil || y == nil, !palm {
            return .invalid("\"down\" needs both \"x\" and \"y\"")
        }
        if let x, !x.isFinite { return .invalid("\"x\" must be a finite number") }
        if let y, !y.isFinite { return .invalid("\"y\" must be a finite number") }
        if let x, InputLimits.units(x) == nil { return .invalid("\"x\" is out of range: \(x); device units must be within ±\(InputLimits.maxWholeUnits)") }
        if let y, InputLimits.units(y) == nil { return .invalid("\"y\" is out of range: \(y); device units must be within ±\(InputLimits.maxWholeUnits)") }
        if palm, kind == .down || kind == .move { return .palm(time: time, id: id) }
        return .event(kind: kind, time: time, id: id, x: x, y: y)
    }

    struct Problem: Error {
        let message: String
    }

    static func checked(time: Double) -> Result<Double, Problem> {
        guard time.isFinite else { return .failure(Problem(message: "\"t\" must be a finite number of seconds")) }
        guard let time = InputLimits.time(time) else {
            return .failure(Problem(message: "\"t\" is out of range: \(time) s; times must be within ±\(InputLimits.maxWholeSeconds) s"))
        }
        return .success(time)
    }
}

/// A mouse line's own keys, read in any order beside the touch keys.
struct MouseFields {
    enum Field { case button, dx, dy, dir }

    var button: String?
    var dx: Double?
    var dy: Double?
    var dir: String?

    static func field(_ s: JSONScanner, _ key: Range<Int>) -> Field? {
        switch key.count {
        case 2: return s.equals(key, "dx") ? .dx : s.equals(key, "dy") ? .dy : nil
        case 3: return s.equals(key, "dir") ? .dir : nil
        case 6: return s.equals(key, "button") ? .button : nil
        default: return nil
        }
    }

    /// False when the JSON itself is broken; a value of the wrong type is a `problem`.
    mutating func read(_ field: Field, _ s: inout JSONScanner, problem: inout String?) -> Bool {
        switch field {
        case .button, .dir:
            guard s.current == 0x22 else {
                problem = problem ?? (field == .button ? "\"button\" must be a string: left, right, middle, side or extra" : "\"dir\" must be a string: up, down, left or right")
                return s.skipValue()
            }
            guard let text = s.readDecodedString() else { return false }
            if field == .button { button = text } else { dir = text }
        case .dx, .dy:
            let c = s.current
            guard c == 0x2D || (c >= 0x30 && c <= 0x39) else {
                problem = problem ?? "\"\(field == .dx ? "dx" : "dy")\" must be a number of counts"
                return s.skipValue()
            }
            guard let v = s.readNumber() else { return false }
            if field == .dx { dx = v } else { dy = v }
        }
        return true
    }
}
