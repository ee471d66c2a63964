import Foundation

/// One gesture as gesturemap emits it under `everyGestureRules`.
struct StatedGesture: Equatable, Sendable, CustomStringConvertible {
    var kind: String
    var fingers: Int
    var direction: String? = nil
    var taps: Int = 0

    static func swipe(_ fingers: Int, _ direction: String) -> StatedGesture { StatedGesture(kind: "swipe", fingers: fingers, direction: direction) }
    static func tap(_ fingers: Int, taps: Int = 1) -> StatedGesture { StatedGesture(kind: "tap", fingers: fingers, taps: taps) }
    static func longPress(_ fingers: Int) -> StatedGesture { StatedGesture(kind: "long_press", fingers: fingers) }

    /// A line of `everyGestureRules`' output, with or without its time.
    init?(line: String) {
        guard let object = Binary.json(line), object["action"] as? String == "gesture",
              let kind = object["kind"] as? String, let fingers = (object["fingers"] as? NSNumber)?.intValue else { return nil }
        self.init(kind: kind, fingers: fingers, direction: object["direction"] as? String,
                  taps: (object["taps"] as? NSNumber)?.intValue ?? 0)
    }

    init(kind: String, fingers: Int, direction: String? = nil, taps: Int = 0) {
        self.kind = kind
        self.fingers = fingers
        self.direction = direction
        self.taps = taps
    }

    /// How many of SOURCE.md's gestures this is: a double tap is two taps.
    var count: Int { kind == "tap" ? max(taps, 1) : 1 }

    var description: String {
        let name = kind == "tap" && taps == 2 ? "double tap" : kind.replacingOccurrences(of: "_", with: " ")
        return "\(fingers)-finger \(name)" + (direction.map { " " + $0 } ?? "")
    }
}

/// Why a recording does not give what its SOURCE.md states.
enum MissCause: String, CaseIterable, Sendable {
    /// Mean speed under `swipe_min_speed` (50 mm/s): a pan rule gets it.
    case slowerThanASwipe = "slower than swipe_min_speed: a pan, not a swipe"
    /// Still for `long_press_duration` before moving: a long press is decided first.
    case stillBeforeMoving = "held still for long_press_duration before moving: a long press"
    /// A fast first stroke is decided while the fingers are down; what the path does later cannot undo it.
    case decidedOnFirstStroke = "a swipe decided on the first stroke, before the path turned"
    /// One finger alone held still for long_press_duration before the others landed.
    case oneFingerFirst = "one finger held still alone for long_press_duration before the second landed"
}

/// What a recording of `../shared/data/real/evemu-devices` gives under
/// `everyGestureRules`, against what its SOURCE.md states.
enum RecordingOutcome: Sendable {
    /// It gives exactly what SOURCE.md states, in order.
    case gives([StatedGesture])
    /// It gives `gives` instead of what SOURCE.md states, for `cause`; `why` has the figures.
    case misses(stated: [StatedGesture], gives: [StatedGesture], cause: MissCause, why: String)

    var stated: [StatedGesture] {
        switch self {
        case .gives(let stated), .misses(let stated, _, _, _): stated
        }
    }

    /// What the recording gives now: the stated gestures, or the listed miss.
    var expected: [StatedGesture] {
        switch self {
        case .gives(let stated): stated
        case .misses(_, let gives, _, _): gives
        }
    }
}

/// Every recording's stated outcome, by file name. SOURCE.md states it per
/// recording in its own words; here as the gestures `everyGestureRules` emits.
/// Where SOURCE.md allows two outcomes, the one gesturemap's defaults choose is
/// written and the other named. Recordings that SOURCE.md calls pans, circles,
/// physical clicks or touches without a gesture state none: they must give nothing.
/// Devices without a resolution get a typical size (docs/defaults.md), so their
/// millimetres are estimates.
let recordingOutcomes: [String: RecordingOutcome] = [
    // Touchscreens
    "Atmel maXTouch Touchscreen.4-finger-drag-down.events": .gives([.swipe(4, "down")]),
    // "2-finger hold/long-press, or nothing; must not be a swipe/pinch": the
    // fingers drift 3.9 mm, more than long_press_max_movement (2.5 mm).
    "Atmel maXTouch Touchscreen.2-fingers-touch-release.events": .gives([]),
    // "1-finger pan up, then down: must not end as a swipe in one direction".
    "Atmel maXTouch Touchscreen.1-finger-drag-up-down.events": .misses(
        stated: [], gives: [.swipe(1, "up")], cause: .decidedOnFirstStroke,
        why: "the stroke up is a swipe (about 12 mm in 0.15 s at 84 mm/s when decided, 105 mm up in all); the drag back down gives no second swipe"),
    // "9 single-finger taps (or double/multi-tap sequences, depending on the
    // timeout)": with a double tap bound they pair up, 230 ms apart.
    "Atmel maXTouch Touchscreen.1-finger-fast-taps.events": .gives([
        .tap(1, taps: 2), .tap(1, taps: 2), .tap(1, taps: 2), .tap(1, taps: 2), .tap(1),
    ]),
    // Y inverted against the label: a swipe up in device coordinates.
    "EP0430M09.4-finger-drag-down.events": .misses(
        stated: [.swipe(4, "up")], gives: [], cause: .slowerThanASwipe,
        why: "52 mm up in 1.17 s, 47 mm/s on a 13.3-inch panel (the device gives no size)"),
    "EP0430M09.2-finger-scroll-down.events": .gives([.swipe(2, "up")]),
    // "2-finger tap if the tap timeout is >= 0.53 s, else hold": tap_max_duration is 0.3 s.
    "EP0430M09.2-fingers-touch-release.events": .gives([.longPress(2)]),
    // Down, then back up: a pan.
    "EP0430M09.1-finger-drag-up-down.events": .gives([]),
    // Up, down, up: a pan.
    "ELAN CANDO Windows7.1-finger-drag-up-down.events": .gives([]),
    "N-Trig MultiTouch.1-finger-drag-NW-SE.events": .gives([.swipe(1, "down-right")]),
    // "2-finger touch/release": no gesture stated, nor any motion.
    "N-Trig MultiTouch.2-fingers-touch-release.events": .misses(
        stated: [], gives: [.longPress(1)], cause: .oneFingerFirst,
        why: "the first finger rests alone 1.27 s before the second lands"),

    // Wacom finger touch: single- is one finger, double- two
    "Wacom ISDv4 E6 Finger.single-top-swipe.events": .gives([.swipe(1, "right")]),
    "Wacom Intuos5 touch M Finger single-top-swipe.events": .gives([.swipe(1, "right")]),
    "Wacom Bamboo 16FG 4x5 Finger single-top-swipe.events": .gives([.swipe(1, "right")]),
    "Wacom ISDv4 E6 Finger.double-top-swipe.events": .gives([.swipe(2, "right")]),
    "Wacom Intuos5 touch M Finger double-top-swipe.events": .gives([.swipe(2, "right")]),
    "Wacom Bamboo 16FG 4x5 Finger double-top-swipe.events": .misses(
        stated: [.swipe(2, "right")], gives: [.longPress(2)], cause: .stillBeforeMoving,
        why: "both fingers rest 0.5 s (the first moves 1.2 mm) before crossing the pad"),
    "Wacom ISDv4 E6 Finger.single-center-scroll.events": .gives([.swipe(1, "down")]),
    "Wacom Intuos5 touch M Finger single-center-scroll.events": .gives([.swipe(1, "down")]),
    "Wacom Bamboo 16FG 4x5 Finger single-center-scroll.events": .gives([.swipe(1, "down")]),
    "Wacom ISDv4 E6 Finger.double-center-scroll.events": .gives([.swipe(2, "down")]),
    "Wacom Intuos5 touch M Finger double-center-scroll.events": .gives([.swipe(2, "down")]),
    "Wacom Bamboo 16FG 4x5 Finger double-center-scroll.events": .gives([.swipe(2, "down")]),
    // "1-finger clockwise circular pan".
    "Wacom ISDv4 E6 Finger.single-center-circle.events": .gives([]),
    "Wacom Intuos5 touch M Finger single-center-circle.events": .gives([]),
    "Wacom Bamboo 16FG 4x5 Finger single-center-circle.events": .misses(
        stated: [], gives: [.longPress(1)], cause: .stillBeforeMoving,
        why: "the finger rests 0.5 s before it starts circling"),
    // "2 fingers moving together in a circle: NOT a rotation, NOT a pinch".
    "Wacom ISDv4 E6 Finger.double-center-circle.events": .misses(
        stated: [], gives: [.swipe(2, "right")], cause: .decidedOnFirstStroke,
        why: "its first 0.25 s is a stroke right, 13 mm at 54 mm/s, on a circle 0.9 s round; no pinch or rotation"),
    "Wacom Intuos5 touch M Finger double-center-circle.events": .gives([]),
    "Wacom Bamboo 16FG 4x5 Finger double-center-circle.events": .gives([]),
    "Wacom ISDv4 E6 Finger.2fg-tap.events": .gives([.tap(2)]),
    // The file name says double tap; only one tap is recorded.
    "Wacom ISDv4 E6 Finger.2fg-double-tap.events": .gives([.tap(2)]),
    "Wacom ISDv4 E6 Finger.single-tap-center.events": .gives([.tap(1)]),
    "Wacom ISDv4 E6 Finger.double-tap-center.events": .gives([.tap(1, taps: 2)]),
    "Wacom Intuos5 touch M Finger double-tap.events": .gives([.tap(2)]),
    "Wacom Intuos5 touch M Finger double-tap-center.events": .gives([.tap(2)]),
    "Wacom Bamboo 16FG 4x5 Finger double-tap.events": .gives([.tap(2)]),
    "Wacom Bamboo 16FG 4x5 Finger double-tap-center.events": .gives([.tap(2)]),

    // Touchpads
    "CyPS2 Cypress Trackpad.two_finger_tap.events": .gives([.tap(2)]),
    "CyPS2 Cypress Trackpad.three_finger_tap.events": .gives([.tap(3)]),
    // Physical clicks: "not a tap".
    "CyPS2 Cypress Trackpad.two_finger_press.events": .gives([]),
    "CyPS2 Cypress Trackpad.three_finger_press.events": .gives([]),
    "AlpsPS2 ALPS GlidePoint.single-tap.events": .gives([.tap(1)]),
    "AlpsPS2 ALPS GlidePoint.double-tap.events": .gives([.tap(1, taps: 2)]),
    "AlpsPS2 ALPS GlidePoint.2-finger-tap.events": .gives([.tap(2)]),
    // "2-finger horizontal scroll attempts": the first stroke goes right
    // together; in the second the fingers cross (one goes right twice while
    // the other comes back left), which states no direction.
    "SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events": .gives([.swipe(2, "right")]),
    // "The data is a 1-finger drag down".
    "SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events": .misses(
        stated: [.swipe(1, "down")], gives: [], cause: .slowerThanASwipe,
        why: "32 mm down in 1.58 s, 20 mm/s"),
    "SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events": .gives([.swipe(1, "down")]),
    // "1-finger horizontal drags along the bottom edge": two, both rightward
    // (the 1655 -> 2351 stroke, with a click, and the last); between them a
    // drag down off the edge (21 mm at 25 mm/s), which SOURCE.md does not name.
    "SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-horizontal.events": .gives([.swipe(1, "right"), .swipe(1, "right")]),
    // "physical clicks with 1/2/3 fingers": protocol A. A click is no tap or
    // long press, and the contact of no size the driver reports for 0.48 s
    // after each click hovers.
    "bcm5974.three-finger-click.events": .gives([]),
]
