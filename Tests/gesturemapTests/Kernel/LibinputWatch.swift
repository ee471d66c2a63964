#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Real libinput reading one device node, as a compositor would
/// (`libinput debug-events --device NODE`): what the desktop makes of it.
final class LibinputWatch {
    let node: String
    private let child: Child

    init(_ node: String) throws {
        self.node = node
        child = try Child(["/usr/bin/libinput", "debug-events", "--device", node])
        guard child.wait(upTo: 20, until: { out, _ in out.contains("DEVICE_ADDED") }) else {
            _ = child.terminate()
            throw KernelTestError("libinput debug-events --device \(node) did not add the device: \(child.stdout)\(child.stderr)")
        }
    }

    deinit { _ = child.terminate() }

    /// Each event's type (TOUCH_DOWN, POINTER_MOTION, GESTURE_SWIPE_BEGIN...),
    /// in order, the device's own addition and removal left out.
    var events: [String] {
        child.outputLines.compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0].trimmingPrefix("-").hasPrefix("event") else { return nil }
            let type = String(words[1])
            return type == "DEVICE_ADDED" || type == "DEVICE_REMOVED" ? nil : type
        }
    }

    /// The lines themselves, for messages.
    var lines: [String] { child.outputLines }

    var removed: Bool { child.stdout.contains("DEVICE_REMOVED") || !child.isRunning }

    /// Waits until no event has come for `quiet` seconds (libinput's own
    /// timeouts, a tap's 180 ms, have run out), up to `timeout`.
    func settle(quiet: Double = 1.0, timeout: Double = 20) {
        var count = -1
        var since = Date()
        _ = child.wait(upTo: timeout) { out, _ in
            let now = out.utf8.count
            if now != count {
                count = now
                since = Date()
                return false
            }
            return Date().timeIntervalSince(since) >= quiet
        }
    }

    /// What libinput made of the touches, kept after it stops.
    struct Reading {
        var events: [String]
        /// POINTER_MOTION's unaccelerated deltas, one per event.
        var steps: [(x: Double, y: Double)]

        var motion: (x: Double, y: Double) { steps.reduce((0, 0)) { ($0.0 + $1.x, $0.1 + $1.y) } }
    }

    var reading: Reading {
        var steps: [(x: Double, y: Double)] = []
        for line in child.outputLines where line.contains("POINTER_MOTION") {
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { continue }
            let parts = line[line.index(after: open)..<close].split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? 0 }
            if parts.count == 2 { steps.append((parts[0], parts[1])) }
        }
        return Reading(events: events, steps: steps)
    }

    /// What a desktop would notice between two readings of the same touches,
    /// or nil: every type but POINTER_MOTION in the same numbers (gestures,
    /// scrolls, buttons, taps), and the pointer's motion within what libinput's
    /// own timing varies by from run to run under QEMU: a motion event more or
    /// less at a gesture's end, which moves the pointer by that event's step.
    static func difference(_ got: Reading, _ expected: Reading) -> String? {
        let others = { (events: [String]) in counts(events.filter { $0 != "POINTER_MOTION" }) }
        if others(got.events) != others(expected.events) { return "events differ: \(counts(got.events)) against \(counts(expected.events))" }
        let moves = (got.steps.count, expected.steps.count)
        if abs(moves.0 - moves.1) > 2 { return "\(moves.0) pointer motions against \(moves.1)" }
        let largest = (x: expected.steps.map { abs($0.x) }.max() ?? 0, y: expected.steps.map { abs($0.y) }.max() ?? 0)
        let (a, b) = (got.motion, expected.motion)
        if abs(a.x - b.x) > 2 * largest.x + 1 || abs(a.y - b.y) > 2 * largest.y + 1 {
            return "the pointer moved \(a) against \(b)"
        }
        return nil
    }

    /// How many of each type, in a stable order: "POINTER_MOTION 46".
    static func counts(_ events: [String]) -> [String] {
        Dictionary(events.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    }
}
