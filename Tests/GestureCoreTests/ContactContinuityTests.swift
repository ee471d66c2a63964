import GestureCore
import Testing

/// The continuity stage joins ids that firmware split off one finger, splits an
/// id that jumped to another finger, and otherwise changes nothing. Frames are
/// built by hand here: the cases are about exact report orders.
@Suite("Contact continuity")
struct ContactContinuityTests {
    static let surface = Surface(width: 100, height: 70)

    static func frame(_ t: Double, _ touches: [(Int, Double, Double, TouchPhase)]) -> TouchFrame {
        TouchFrame(time: t, touches: touches.map { Touch(id: $0.0, position: Vector($0.1, $0.2), phase: $0.3) }, surface: surface)
    }

    static func run(_ frames: [TouchFrame], _ phrases: [String]) -> [String] {
        TouchScript.recognize(frames, rules: phrases.map { TouchScript.rule($0) }).map(TouchScript.summary)
    }

    static let swipes = ["swipe down", "2-finger swipe down", "3-finger swipe down", "swipe left", "2-finger swipe left"]

    /// One finger moving down at 400 mm/s, 5 mm a frame every 12.5 ms; at frame
    /// `at`, the firmware gives it a new id 6 mm ahead, and the old id lifts in
    /// the next report (or in the same one).
    static func handoff(at k: Int, sameFrame: Bool) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        var t = 1.0
        frames.append(frame(t, [(1, 50, 10, .began)]))
        for i in 1...k {
            t += 0.0125
            frames.append(frame(t, [(1, 50, 10 + 5 * Double(i), .moved)]))
        }
        var y = 10 + 5 * Double(k)
        t += 0.0125
        y += 5
        if sameFrame {
            frames.append(frame(t, [(1, 50, y - 5, .ended), (2, 50, y + 1, .began)]))
        } else {
            frames.append(frame(t, [(1, 50, y, .moved), (2, 50, y + 6, .began)]))
            t += 0.0125
            y += 11
            frames.append(frame(t, [(1, 50, y - 11, .ended), (2, 50, y, .moved)]))
        }
        for _ in 0..<3 {
            t += 0.0125
            y += 5
            frames.append(frame(t, [(2, 50, y, .moved)]))
        }
        t += 0.0125
        frames.append(frame(t, [(2, 50, y, .ended)]))
        return frames
    }

    @Test("a finger handed to a new id a little ahead is one finger", arguments: [false, true])
    func handoffIsOneFinger(sameFrame: Bool) {
        #expect(Self.run(Self.handoff(at: 3, sameFrame: sameFrame), Self.swipes) == ["swipe 1 down ended"])
    }

    @Test("a finger echoed by its old id a report behind is one finger")
    func echoIsOneFinger() {
        // The new id 2 leads; the old id 1 lands on 2's previous spot each report.
        var frames = [Self.frame(1.0, [(1, 90, 30, .began)])]
        frames.append(Self.frame(1.012, [(1, 89.8, 30, .moved), (2, 75, 30, .began)]))
        frames.append(Self.frame(1.024, [(1, 75.2, 30, .moved), (2, 55, 30, .moved)]))
        frames.append(Self.frame(1.036, [(1, 55.1, 30, .moved), (2, 35, 30, .moved)]))
        frames.append(Self.frame(1.048, [(1, 35, 30, .moved), (2, 15, 30, .moved)]))
        frames.append(Self.frame(1.058, [(1, 35, 30, .ended), (2, 12, 30, .moved)]))
        frames.append(Self.frame(1.066, [(2, 12, 30, .ended)]))
        #expect(Self.run(frames, Self.swipes) == ["swipe 1 left ended"])
    }

    @Test("a second finger landing beside the first, a frame later, still counts: a 2-finger swipe")
    func secondFingerStillCounts() {
        // 16 mm apart, the second 30 ms late: held for one frame, then released as a finger of its own.
        let plan = TouchScript.stroke(fingers: 2, angle: 90, length: 40, duration: 0.2, spacing: 16, stagger: [0, 0.03])
        #expect(Self.run(TouchScript.frames(plan, rate: 100), Self.swipes) == ["swipe 2 down ended"])
    }

    @Test("a landing held back is released when no frame comes: a 2-finger tap on a quiet pad")
    func heldLandingReleasedByDeadline() {
        // Nothing is reported between the second landing and the lifts (still fingers send nothing).
        let frames = [
            Self.frame(1.0, [(1, 40, 30, .began)]),
            Self.frame(1.02, [(1, 40, 30, .stationary), (2, 56, 30, .began)]),
            Self.frame(1.1, [(1, 40, 30, .ended), (2, 56, 30, .ended)]),
        ]
        #expect(Self.run(frames, ["tap", "2-finger tap"]) == ["tap 2 x1 ended"])
    }

    @Test("an id that jumps from rest to another spot is two taps, not a stroke")
    func teleportIsTwoTaps() {
        // Still at (30, 30) for 40 ms, silent for 80 ms, then reported 25 mm away, where it stays.
        let frames = [
            Self.frame(1.0, [(1, 30, 30, .began)]),
            Self.frame(1.01, [(1, 30.2, 30, .moved)]),
            Self.frame(1.04, [(1, 30.3, 30.1, .moved)]),
            Self.frame(1.12, [(1, 55, 30, .moved)]),
            Self.frame(1.13, [(1, 55.1, 30, .moved)]),
            Self.frame(1.2, [(1, 55.1, 30, .ended)]),
        ]
        #expect(Self.run(frames, ["tap", "swipe right", "pan"]) == ["tap 1 x1 ended", "tap 1 x1 ended"])
    }

    @Test("a still finger whose noise reads as 80 mm/s toward a neighbour landing beside it, lifting the next report, is not handed off: a drumroll's two taps")
    func noisyStillFingerIsNoHandoff() {
        // 200 Hz; the first finger jitters 0.4 mm in its last 5 ms step, toward
        // where the second lands 19 mm to its right, and lifts the next report.
        let frames = [
            Self.frame(1.0, [(1, 30, 30, .began)]),
            Self.frame(1.005, [(1, 30.1, 30.1, .moved)]),
            Self.frame(1.01, [(1, 29.9, 30, .moved)]),
            Self.frame(1.015, [(1, 30.0, 29.9, .moved)]),
            Self.frame(1.02, [(1, 30.3, 30, .moved)]),
            Self.frame(1.04, [(1, 29.9, 30.1, .moved)]),
            Self.frame(1.045, [(1, 30.3, 30.0, .moved), (2, 49, 30, .began)]),
            Self.frame(1.05, [(1, 30.3, 30.0, .ended), (2, 49.1, 30, .moved)]),
            Self.frame(1.06, [(2, 49.1, 30.1, .moved)]),
            Self.frame(1.095, [(2, 49.1, 30.1, .ended)]),
        ]
        #expect(Self.run(frames, ["tap", "2-finger tap", "swipe right", "pan"]) == ["tap 1 x1 ended", "tap 1 x1 ended"])
    }

    @Test("two ids on one spot from the start are left alone")
    func sameSpotIsNotAnEcho() {
        let frames = [
            Self.frame(1.0, [(1, 40, 30, .began)]),
            Self.frame(1.01, [(1, 40, 30, .stationary), (2, 41, 30, .began)]),
            Self.frame(1.02, [(1, 41.2, 30, .moved), (2, 41, 30, .stationary)]),
            Self.frame(1.08, [(1, 41.2, 30, .ended), (2, 41, 30, .ended)]),
        ]
        #expect(Self.run(frames, ["tap", "2-finger tap"]) == ["tap 2 x1 ended"])
    }

    /// The ALPS GlidePoint two-finger tap at 28 units/mm: a semi-mt pad reports
    /// the fingers' bounding box, whose corners jump 10 mm as the second finger
    /// lands, breathes, and collapses onto the last finger.
    static func semiMTTap(boundingBox: Bool) -> [TouchFrame] {
        var frames = [
            frame(0, [(1, 27.4, 30.6, .began)]),
            frame(0.0107, [(1, 27.1, 28.6, .moved)]),
            frame(0.0306, [(1, 26.2, 25.0, .moved), (2, 47.6, 36.4, .began)]),
            frame(0.0716, [(1, 26.2, 20.4, .moved), (2, 47.6, 38.6, .moved)]),
            frame(0.1125, [(1, 26.2, 25.0, .moved), (2, 47.6, 36.4, .moved)]),
            frame(0.2143, [(1, 23.8, 18.2, .moved), (2, 47.6, 36.4, .ended)]),
            frame(0.2245, [(1, 23.8, 18.2, .ended)]),
        ]
        for k in 2...4 { frames[k].boundingBox = boundingBox }
        return frames
    }

    @Test("a semi-mt pad's bounding box is no movement: its two-finger tap is a tap")
    func boundingBoxTap() {
        #expect(Self.run(Self.semiMTTap(boundingBox: true), ["tap", "2-finger tap"]) == ["tap 2 x1 ended"])
        #expect(Self.run(Self.semiMTTap(boundingBox: false), ["tap", "2-finger tap"]).isEmpty, "the same positions taken as fingers moved 10 mm")
    }
}
