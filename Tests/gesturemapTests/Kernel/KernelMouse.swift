import Foundation

/// A USB mouse of our own, as evemu text: relative X and Y, the wheel, and
/// the left, right, middle, side and extra buttons, with MSC_SCAN as a real
/// mouse sends it. No MOUSE_DPI in udev's database: 1000 dpi, a count 0.0254 mm.
enum KernelMouse {
    static let header = """
        # EVEMU 1.3
        N: gesturemap kernel-test mouse
        I: 0003 1234 5678 0111
        P: 00 00 00 00 00 00 00 00
        B: 00 17 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 1f 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 03 01 00 00 00 00 00 00
        B: 03 00 00 00 00 00 00 00 00
        B: 04 10 00 00 00 00 00 00 00

        """

    static func description() throws -> String {
        try Binary.temporaryFile("mouse.desc", header).path
    }

    /// A wireless receiver's one node for a keyboard and a mouse: the mouse's
    /// motion and buttons, and KEY_Q and KEY_A. A keyboard: never taken for a mouse.
    static func keyboardDescription() throws -> String {
        let keyboard = header
            .replacingOccurrences(of: "N: gesturemap kernel-test mouse", with: "N: gesturemap kernel-test receiver")
            .replacingOccurrences(of: "I: 0003 1234 5678 0111", with: "I: 0003 1234 5679 0111")
            .replacingOccurrences(of: "B: 00 17 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00", with: "B: 00 17 00 00 00 00 00 00 00\nB: 01 00 00 01 40 00 00 00 00")
        return try Binary.temporaryFile("receiver.desc", keyboard).path
    }

    static let left: UInt16 = 0x110
    static let right: UInt16 = 0x111
    static let side: UInt16 = 0x113
    static let extra: UInt16 = 0x114

    /// Events for `evemu-play`, packet by packet at 125 Hz.
    struct Script {
        private(set) var lines: [String] = []
        private(set) var time: Double

        init(startingAt time: Double = 0.1) {
            self.time = time
        }

        private mutating func event(_ type: Int, _ code: Int, _ value: Int32) {
            lines.append(String(format: "E: %.6f %04x %04x %d", time, type, code, value))
        }

        private mutating func report(after gap: Double) {
            event(0, 0, 0)
            time += gap
        }

        mutating func press(_ button: UInt16, frame: Double = 0.008) {
            event(4, 4, Int32(0x90000 + Int(button) - 0x10f))
            event(1, Int(button), 1)
            report(after: frame)
        }

        mutating func release(_ button: UInt16, frame: Double = 0.008) {
            event(4, 4, Int32(0x90000 + Int(button) - 0x10f))
            event(1, Int(button), 0)
            report(after: frame)
        }

        /// `packets` packets of (dx, dy) counts each.
        mutating func move(dx: Int32, dy: Int32, packets: Int, frame: Double = 0.008) {
            for _ in 0..<packets {
                if dx != 0 { event(2, 0, dx) }
                if dy != 0 { event(2, 1, dy) }
                report(after: frame)
            }
        }

        /// A notch of the wheel: +1 away from the user (up), -1 towards.
        mutating func wheel(_ value: Int32, frame: Double = 0.05) {
            event(2, 8, value)
            report(after: frame)
        }

        /// `button` pressed and let go, one packet later.
        mutating func click(_ button: UInt16) {
            press(button)
            release(button)
        }

        /// `button` pressed, `packets` packets of (dx, dy) counts, and let go.
        mutating func drag(_ button: UInt16, dx: Int32, dy: Int32, packets: Int) {
            press(button)
            move(dx: dx, dy: dy, packets: packets)
            release(button)
        }

        mutating func pause(_ seconds: Double) { time += seconds }

        /// The same script from here on, for a second play.
        func continuing() -> Script { Script(startingAt: time) }

        func file(_ name: String) throws -> String {
            try Binary.temporaryFile(name, KernelMouse.header + lines.joined(separator: "\n") + "\n").path
        }
    }
}
