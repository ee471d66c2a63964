/// A `<gesture>`'s type, fingers and direction as Touchégg 2.x files them:
/// under the key `application_TYPE_FINGERS_DIRECTION` (config.cpp,
/// getConfigKey), TYPE and DIRECTION their enums' numbers, FINGERS the
/// attribute's text. A gesture runs only when a key it makes is looked up:
/// a swipe with UP, DOWN, LEFT or RIGHT, a pinch with IN or OUT, a tap with
/// no direction, each with `std::to_string` of the fingers counted.
struct ToucheggGesture {
    var kind: ImportedBinding.Kind
    var fingers: Int?
    var direction: String?
    var taps = 1
    /// Why Touchégg never looks this key up; nil when it does.
    var neverRuns: String?
    /// Text joined to each lower-cased application name in the key, when the
    /// fingers hold `_`: then the key reads as another gesture's for other names.
    var appSuffix = ""
    var notes: [String] = []

    /// gestureTypeFromStr: exact names; DRAG is 1.x's name for SWIPE.
    static func typeNumber(_ type: [UInt8]) -> Int {
        switch type {
        case Array("SWIPE".utf8), Array("DRAG".utf8): return 1
        case Array("PINCH".utf8): return 2
        case Array("TAP".utf8): return 3
        default: return 0
        }
    }

    /// gestureDirectionFromStr: exact names, anything else UNKNOWN (0).
    static let directionNumbers: [[UInt8]: Int] = [
        Array("UP".utf8): 1, Array("DOWN".utf8): 2, Array("LEFT".utf8): 3, Array("RIGHT".utf8): 4,
        Array("IN".utf8): 5, Array("OUT".utf8): 6,
    ]
    static let directionWords = [1: "up", 2: "down", 3: "left", 4: "right", 5: "in", 6: "out"]

    init(type: PugiText, fingers: PugiText, direction: PugiText) {
        let typeNumber = Self.typeNumber(type.bytes)
        let directionNumber = Self.directionNumbers[direction.bytes] ?? 0
        // The key read from its end: the direction, then the fingers up to the
        // last `_`, then the type; fingers with `_` move the rest into the name.
        let segments = fingers.bytes.split(separator: UInt8(ascii: "_"), omittingEmptySubsequences: false).map(Array.init)
        let count = segments.last ?? []
        var keyType = Array(String(typeNumber).utf8)
        if segments.count > 1 {
            keyType = segments[segments.count - 2]
            appSuffix = "_" + String(typeNumber) + segments.dropLast(2).map { "_" + String(decoding: $0, as: UTF8.self) }.joined()
        }
        let keyTypeNumber = keyType == Array("1".utf8) ? 1 : keyType == Array("2".utf8) ? 2 : keyType == Array("3".utf8) ? 3 : 0
        kind = [1: .swipe, 2: .pinch, 3: .tap][keyTypeNumber] ?? Self.legacyKind(type.bytes, taps: &taps)
        self.direction = kind == .tap ? nil : Self.directionWords[directionNumber]
        self.fingers = Self.count(count) ?? Int(String(decoding: fingers.bytes, as: UTF8.self).trimmingWhitespace)

        if !appSuffix.isEmpty {
            notes.append("fingers=\"\(LuaText.printable(fingers.shown))\" has _, so Touchégg's key for this gesture (it joins the name, type, fingers and direction with _) is that of a \(kind.rawValue) for applications whose name ends in \(LuaText.printable(appSuffix))")
        }
        neverRuns = Self.whyNeverLookedUp(keyTypeNumber, direction: directionNumber, type: type, directionText: direction, count: count, fingers: fingers)
    }

    /// 1.x's names, for the commented-out rule: 2.x runs none of them.
    static func legacyKind(_ type: [UInt8], taps: inout Int) -> ImportedBinding.Kind {
        switch String(decoding: type, as: UTF8.self).uppercased() {
        case "SWIPE", "DRAG": return .swipe
        case "PINCH": return .pinch
        case "TAP": return .tap
        case "DOUBLE_TAP":
            taps = 2
            return .tap
        case "TAP_AND_HOLD": return .longPress
        case "ROTATE": return .rotate
        default: return .other
        }
    }

    /// `std::to_string(n)` for a count Touchégg can see: no sign, no leading zero.
    static func count(_ text: [UInt8]) -> Int? {
        guard let first = text.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"), text.count <= 9,
              text.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(String(decoding: text, as: UTF8.self))
    }

    static func whyNeverLookedUp(_ type: Int, direction: Int, type typeText: PugiText, directionText: PugiText,
                                 count: [UInt8], fingers: PugiText) -> String? {
        let typeShown = LuaText.printable(typeText.shown)
        let directionShown = LuaText.printable(directionText.shown)
        switch type {
        case 0:
            let upper = typeText.shown.uppercased()
            if ["SWIPE", "DRAG", "PINCH", "TAP"].contains(upper) {
                return "type=\"\(typeShown)\": Touchégg compares gesture types exactly, letter case too (SWIPE, PINCH, TAP), so it never runs this; write type=\"\(upper)\""
            }
            let hint: String
            switch upper {
            case "DOUBLE_TAP": hint = "; 1.x's DOUBLE_TAP is gesturemap's \"N-finger double tap\": write that rule by hand"
            case "TAP_AND_HOLD": hint = "; 1.x's TAP_AND_HOLD is gesturemap's \"N-finger long press\": write that rule by hand"
            case "ROTATE": hint = "; 1.x's ROTATE is gesturemap's \"N-finger rotate clockwise\" (or counterclockwise): write that rule by hand"
            default: hint = ""
            }
            return "type=\"\(typeShown)\" is no gesture type of Touchégg 2.x (SWIPE, PINCH, TAP; DRAG reads as SWIPE), so it never runs this\(hint)"
        case 1 where !(1...4).contains(direction):
            let legacy = ["ALL", ""].contains(directionText.shown) ? " (Touchégg 1.x's direction=\"ALL\", every direction, is gesturemap's \"N-finger swipe\": write that rule by hand)" : ""
            return "a swipe's direction is UP, DOWN, LEFT or RIGHT, written so, not \"\(directionShown)\": Touchégg 2.x never runs this\(legacy)"
        case 2 where !(5...6).contains(direction):
            let legacy = ["ALL", ""].contains(directionText.shown) ? " (Touchégg 1.x's direction=\"ALL\" is gesturemap's \"N-finger pinch\", followed phase by phase: write that rule by hand)" : ""
            return "a pinch's direction is IN or OUT, written so, not \"\(directionShown)\": Touchégg 2.x never runs this\(legacy)"
        case 3 where direction != 0:
            return "Touchégg looks a tap up with no direction, so a TAP with direction=\"\(directionShown)\" never runs; leave the direction out"
        default:
            break
        }
        guard let n = Self.count(count) else {
            return "fingers=\"\(LuaText.printable(fingers.shown))\" is no finger count as Touchégg compares it (the number written plainly, as in fingers=\"3\"), so it never runs this"
        }
        if n < 2 {
            return "Touchégg recognizes gestures of 2 fingers or more, so it never runs a \(n)-finger one"
        }
        return nil
    }
}
