import Foundation

/// A protocol-B touchscreen of our own, as evemu text: 10 slots at 16 units/mm,
/// 256 × 144 mm. Strokes are written frame by frame, so a test knows where
/// each finger is when (and can cut a stroke where it wants to).
enum TouchPanel {
    static let header = """
        # EVEMU 1.3
        N: gesturemap kernel-test panel
        I: 0018 0000 0000 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 4095 0 0 16
        A: 01 0 2303 0 0 16
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 16
        A: 36 0 2303 0 0 16
        A: 39 0 65535 0 0 0

        """

    /// The description alone, for `evemu-device`.
    static func description() throws -> String {
        try Binary.temporaryFile("panel.desc", header).path
    }

    /// Events for `evemu-play`.
    struct Script {
        private(set) var lines: [String] = []
        private(set) var time: Double
        private var nextID: Int32
        /// A touchpad's script (`ClickPad`): BTN_TOOL_* says how many fingers are down.
        private let touchpad: Bool
        private var unitsPerMillimetre: Double { touchpad ? ClickPad.unitsPerMillimetre : 16 }
        /// Fingers down: slot → position (device units).
        private var fingers: [Int: (x: Int, y: Int)] = [:]

        init(startingAt time: Double = 0.1, firstTrackingID: Int32 = 100, touchpad: Bool = false) {
            self.time = time
            nextID = firstTrackingID
            self.touchpad = touchpad
        }

        /// BTN_TOOL_FINGER ... BTN_TOOL_QUINTTAP for `count` fingers (a touchpad's).
        private mutating func tools(_ from: Int, _ to: Int) {
            guard touchpad, from != to else { return }
            let codes = [0x145, 0x14d, 0x14e, 0x14f, 0x148]
            if from > 0 { event(1, codes[min(from, 5) - 1], 0) }
            if to > 0 { event(1, codes[min(to, 5) - 1], 1) }
        }

        /// The clickpad's button, pressed or let go.
        mutating func click(_ down: Bool, frame: Double = 0.008) {
            event(1, 0x110, down ? 1 : 0)
            report(after: frame)
        }

        private mutating func event(_ type: Int, _ code: Int, _ value: Int) {
            let seconds = Int(time)
            let micros = Int(((time - Double(seconds)) * 1e6).rounded())
            let value = value < 0 ? String(format: "-%03d", -value) : String(format: "%04d", value)
            lines.append(String(format: "E: %d.%06d %04x %04x ", seconds, min(micros, 999_999), type, code) + value)
        }

        private mutating func report(after gap: Double) {
            event(0, 0, 0)
            time += gap
        }

        /// Fingers land at these points, millimetres from the top left.
        mutating func land(_ points: [(x: Double, y: Double)], frame: Double = 0.008) {
            var slot = 0
            let before = fingers.count
            for point in points {
                while fingers[slot] != nil { slot += 1 }
                let at = (x: Int(point.x * unitsPerMillimetre), y: Int(point.y * unitsPerMillimetre))
                event(3, 0x2F, slot)
                event(3, 0x39, Int(nextID))
                nextID += 1
                event(3, 0x35, at.x)
                event(3, 0x36, at.y)
                fingers[slot] = at
            }
            if before == 0 { event(1, 0x14A, 1) }
            tools(before, fingers.count)
            report(after: frame)
        }

        /// Every finger moves by (dx, dy) mm in `frames` even steps.
        mutating func move(dx: Double, dy: Double, frames: Int, frame: Double = 0.008) {
            let start = fingers
            for step in 1...max(1, frames) {
                let f = Double(step) / Double(max(1, frames))
                for slot in start.keys.sorted() {
                    guard let from = start[slot] else { continue }
                    let to = (x: from.x + Int(dx * unitsPerMillimetre * f), y: from.y + Int(dy * unitsPerMillimetre * f))
                    event(3, 0x2F, slot)
                    if to.x != fingers[slot]?.x { event(3, 0x35, to.x) }
                    if to.y != fingers[slot]?.y { event(3, 0x36, to.y) }
                    fingers[slot] = to
                }
                report(after: frame)
            }
        }

        mutating func lift(frame: Double = 0.008) {
            let before = fingers.count
            for slot in fingers.keys.sorted() {
                event(3, 0x2F, slot)
                event(3, 0x39, -1)
            }
            fingers.removeAll()
            event(1, 0x14A, 0)
            tools(before, 0)
            report(after: frame)
        }

        mutating func pause(_ seconds: Double) { time += seconds }

        /// The same fingers, time and tracking ids, with no events yet: what
        /// comes next, played as a recording of its own.
        func continuing() -> Script {
            var next = self
            next.lines = []
            return next
        }

        /// A clean two-finger swipe: 60 mm in 0.25 s, to the left by default.
        mutating func twoFingerSwipe(dx: Double = -60, dy: Double = 0) {
            land([(x: 150, y: 60), (x: 150, y: 90)])
            move(dx: dx, dy: dy, frames: 30)
            lift()
        }

        /// Three fingers landing together and swiping 60 mm left, then a rest:
        /// what the sharing tests claim.
        mutating func threeFingerSwipeLeft() {
            land([(x: 150, y: 40), (x: 150, y: 70), (x: 150, y: 100)])
            move(dx: -60, dy: 0, frames: 30)
            lift()
            pause(0.5)
        }

        /// Written out for `evemu-play`, with the description first.
        func file(_ name: String) throws -> String {
            try Binary.temporaryFile(name, (touchpad ? ClickPad.header : TouchPanel.header) + lines.joined(separator: "\n") + "\n").path
        }
    }
}

/// A modern clickpad of our own: I2C, five slots, a button under the pad
/// (INPUT_PROP_BUTTONPAD), 100 × 60 mm at 12 units/mm. Scripts for it are
/// `TouchPanel.Script(touchpad: true)`.
enum ClickPad {
    static let unitsPerMillimetre = 12.0
    static let header = """
        # EVEMU 1.3
        N: gesturemap kernel-test clickpad
        I: 0018 06cb 7e7e 0100
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00
        B: 01 20 e5 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1200 0 0 12
        A: 01 0 720 0 0 12
        A: 2f 0 4 0 0 0
        A: 35 0 1200 0 0 12
        A: 36 0 720 0 0 12
        A: 39 0 65535 0 0 0

        """

    static func description() throws -> String {
        try Binary.temporaryFile("clickpad.desc", header).path
    }
}
