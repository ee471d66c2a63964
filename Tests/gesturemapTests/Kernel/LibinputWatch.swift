#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Real libinput reading one device node, as a compositor would
/// (`libinput debug-events --device NODE`): what the desktop makes of it.
final class LibinputWatch {
    let node: String
    private let child: Child

    /// `tapping`: tap-to-click on, as desktops set it for touchpads (libinput's default is off).
    init(_ node: String, tapping: Bool = false) throws {
        self.node = node
        child = try Child(["/usr/bin/libinput", "debug-events", "--device", node] + (tapping ? ["--enable-tap"] : []))
        guard child.wait(upTo: 20, until: { out, _ in out.contains("DEVICE_ADDED") }) else {
            _ = child.terminate()
            throw KernelTestError("libinput debug-events --device \(node) did not add the device: \(child.stdout)\(child.stderr)")
        }
    }

    deinit { _ = child.terminate() }

    /// Each event's type (TOUCH_DOWN, POINTER_MOTION, GESTURE_SWIPE_BEGIN...),
    /// in order, the device's own addition and removal left out.
    var events: [String] { events(fromLine: 0) }

    /// The events of the lines from `first` on (`lines.count` before a play: what it made).
    func events(fromLine first: Int) -> [String] {
        child.outputLines.dropFirst(first).compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0].trimmingPrefix("-").hasPrefix("event") else { return nil }
            let type = String(words[1])
            return type == "DEVICE_ADDED" || type == "DEVICE_REMOVED" ? nil : type
        }
    }

    /// The lines themselves, for messages.
    var lines: [String] { child.outputLines }

    /// When libinput says each event of this type came (its `+1.234s`), in order.
    func times(of type: String) -> [Double] {
        child.outputLines.compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3, words[1] == type, words[2].hasPrefix("+"), words[2].hasSuffix("s"),
                  let seconds = Double(words[2].dropFirst().dropLast()) else { return nil }
            // libinput prints milliseconds as an unsigned 32-bit count: an event a
            // little before its start reads as 4294967.295 s.
            return seconds >= 2_147_483.648 ? seconds - 4_294_967.296 : seconds
        }
    }

    var removed: Bool { child.stdout.contains("DEVICE_REMOVED") || !child.isRunning }

    /// Waits until no event has come for `quiet` seconds (libinput's own
    /// timeouts, a tap's 180 ms, have run out), up to `timeout`.
    func settle(quiet: Double = 1.0, timeout: Double = 20) {
        child.waitForQuiet(quiet, upTo: timeout)
    }

    /// What libinput made of the touches, kept after it stops.
    struct Reading {
        var events: [String]
        /// POINTER_MOTION's unaccelerated deltas, one per event.
        var steps: [(x: Double, y: Double)]

        var motion: (x: Double, y: Double) { steps.reduce((0, 0)) { ($0.0 + $1.x, $0.1 + $1.y) } }
    }

    var reading: Reading { reading(fromLine: 0) }

    /// The finger scrolling libinput made, summed: vertical and horizontal.
    func scrolled(fromLine first: Int = 0) -> (vertical: Double, horizontal: Double) {
        var total = (vertical: 0.0, horizontal: 0.0)
        for line in child.outputLines.dropFirst(first) where line.contains("POINTER_SCROLL_FINGER") {
            func value(_ axis: String) -> Double {
                guard let range = line.range(of: axis + " ") else { return 0 }
                return Double(line[range.upperBound...].prefix { $0 != "/" && $0 != " " }) ?? 0
            }
            total.vertical += value("vert")
            total.horizontal += value("horiz")
        }
        return total
    }

    func reading(fromLine first: Int) -> Reading {
        var steps: [(x: Double, y: Double)] = []
        for line in child.outputLines.dropFirst(first) where line.contains("POINTER_MOTION") {
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { continue }
            let parts = line[line.index(after: open)..<close].split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? 0 }
            if parts.count == 2 { steps.append((parts[0], parts[1])) }
        }
        return Reading(events: events(fromLine: first), steps: steps)
    }

    /// What a desktop would notice between two readings of the same touches,
    /// or nil. Gestures' beginnings and ends, buttons and taps: the same types
    /// in the same numbers. Pointer motion, finger scrolling and gesture
    /// updates, which run a frame at a time: as many events within `frames`, and the pointer where it went within two of
    /// its largest steps. Two sources of such a difference: libinput's own
    /// timing, which under QEMU moves a frame into or out of a gesture from run
    /// to run, and sharing's landing hold-back when claims are on (docs/sharing.md),
    /// which keeps up to 1.5 mm of a landing from the desktop (two frames here).
    ///
    /// libinput's hold gesture begins when the fingers have sent nothing new
    /// for a while: a stall of the guest's CPU of some 40 ms makes one, with
    /// or without gesturemap. A hold more or less is allowed; nothing else is.
    static func difference(_ got: Reading, _ expected: Reading, frames: Int = 2) -> String? {
        // A gesture's updates come a frame at a time as motion does: libinput's
        // timer that settles scroll against pinch moves a frame between them
        // from run to run (the Synaptics horizontal scroll: 6 or 7 pinch updates).
        let continuous = { (type: String) in
            type == "POINTER_MOTION" || type.hasPrefix("POINTER_SCROLL") || (type.hasPrefix("GESTURE_") && type.hasSuffix("_UPDATE"))
        }
        let hold = { (type: String) in type.hasPrefix("GESTURE_HOLD") }
        let others = { (events: [String]) in counts(events.filter { !continuous($0) && !hold($0) }) }
        if others(got.events) != others(expected.events) { return "events differ: \(counts(got.events)) against \(counts(expected.events))" }
        for type in ["GESTURE_HOLD_BEGIN", "GESTURE_HOLD_END"] {
            let (a, b) = (got.events.filter { $0 == type }.count, expected.events.filter { $0 == type }.count)
            if abs(a - b) > 1 { return "\(a) \(type) against \(b): \(counts(got.events)) against \(counts(expected.events))" }
        }
        for type in Set((got.events + expected.events).filter(continuous)) {
            let (a, b) = (got.events.filter { $0 == type }.count, expected.events.filter { $0 == type }.count)
            if abs(a - b) > frames { return "\(a) \(type) against \(b): \(counts(got.events)) against \(counts(expected.events))" }
        }
        let largest = (x: expected.steps.map { abs($0.x) }.max() ?? 0, y: expected.steps.map { abs($0.y) }.max() ?? 0)
        let (a, b) = (got.motion, expected.motion)
        if abs(a.x - b.x) > Double(frames) * largest.x + 1 || abs(a.y - b.y) > Double(frames) * largest.y + 1 {
            return "the pointer moved \(a) against \(b)"
        }
        return nil
    }

    /// How many of each type, in a stable order: "POINTER_MOTION 46".
    static func counts(_ events: [String]) -> [String] {
        Dictionary(events.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    }
}
