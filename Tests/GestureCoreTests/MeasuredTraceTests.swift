import Foundation
import GestureCore
import Testing

/// Failures name the number that decided them, the limit it broke and the
/// `config` key that sets the limit; `--trace=json` carries the same as fields.
@Suite("Measured trace")
struct MeasuredTraceTests {
    static func records(_ frames: [TouchFrame], _ phrases: String...) -> [TraceRecord] {
        var arena = GestureArena(rules: phrases.map { TouchScript.rule($0) })
        arena.tracing = true
        var out: [Delivery] = []
        for f in frames { arena.handle(f, into: &out) }
        arena.finish(into: &out)
        return arena.traceRecords
    }

    static func failures(_ records: [TraceRecord], of kind: GestureKind) -> [Transition] {
        records.compactMap { record in
            guard case .transition(let t) = record.entry, t.kind == kind, t.to == .failed else { return nil }
            return t
        }
    }

    @Test("a press that drifts 6 mm: the tap failed once it moved past 5 mm (tap_max_movement)")
    func tapMoved() throws {
        let frames = TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1, drift: Vector(6, 0)))
        let failure = try #require(Self.failures(Self.records(frames, "tap"), of: .tap).first)
        let m = try #require(failure.cause.measurement)
        #expect(m.key == .tapMaxMovement)
        #expect(m.bound == .maximum)
        #expect(m.limit == 5)
        #expect(m.value > 5 && m.value < 6, "\(m.value)")
        #expect(failure.cause.description == "moved \(Measurement.format(m.value)) mm > 5 mm (tap_max_movement)")
    }

    @Test("a slow drag lifted: the swipe failed on its speed against swipe_min_speed")
    func slowDrag() throws {
        // 30 mm in 1 s: 30 mm/s, under the 50 mm/s a lifted swipe needs.
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 2, angle: 180, length: 30, duration: 1))
        let failure = try #require(Self.failures(Self.records(frames, "two-finger swipe left"), of: .swipe).first)
        let m = try #require(failure.cause.measurement)
        #expect(m.key == .swipeMinSpeed)
        #expect(m.bound == .minimum)
        #expect(m.value > 20 && m.value < 40, "\(m.value)")
        #expect(failure.cause.description.hasPrefix("lifted too slow: speed "), "\(failure.cause)")
        #expect(failure.cause.description.hasSuffix(" mm/s < 50 mm/s (swipe_min_speed)"), "\(failure.cause)")
    }

    @Test("a drag held past swipe_max_duration says how long it lasted")
    func tooLong() throws {
        let frames = TouchScript.frames(TouchScript.stroke(fingers: 1, angle: 0, length: 60, duration: 3))
        let failure = try #require(Self.failures(Self.records(frames, "swipe right"), of: .swipe).first)
        let m = try #require(failure.cause.measurement)
        #expect(m.key == .swipeMaxDuration)
        #expect(m.quantity == "stroke lasted")
        #expect(m.value > 1.99, "\(m.value)")
        // Failed by its deadline, at the limit itself.
        #expect(failure.cause.description == "stroke lasted 2 s ≥ 2 s (swipe_max_duration)")
    }

    @Test("a short press is no long press: held 0.1 s < 0.5 s (long_press_duration)")
    func longPressEarly() throws {
        let frames = TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1))
        let failure = try #require(Self.failures(Self.records(frames, "long press"), of: .longPress).first)
        #expect(failure.cause.description == "held 0.1 s < 0.5 s (long_press_duration)")
    }

    @Test("a tap that lifts without a stroke: the swipe says how little it moved")
    func noStroke() throws {
        let frames = TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1, drift: Vector(3, 0)))
        let failure = try #require(Self.failures(Self.records(frames, "swipe left"), of: .swipe).first)
        let m = try #require(failure.cause.measurement)
        #expect(m.key == .swipeMinDistance)
        #expect(m.quantity == "moved")
        #expect(abs(m.value - 3) < 0.2, "\(m.value)")
    }

    @Test("the recognizers a winner fails say which rule beat them")
    func lostTo() {
        let frames = TouchScript.frames(TouchScript.orbit(fingers: 2, radius: (30, 10), turn: 0, duration: 0.4))
        let lines = Self.records(frames, "pinch", "two-finger swipe left").map(\.words)
        #expect(lines.contains("swipe: possible → lost to rule \"pinch\" → failed"), "\(lines)")
    }

    @Test("--trace=json: one object with the transition, its cause's name, words and measurement")
    func json() throws {
        let frames = TouchScript.frames(TouchScript.press(fingers: 1, duration: 0.1, drift: Vector(6, 0)))
        let record = try #require(Self.records(frames, "tap").first { record in
            if case .transition(let t) = record.entry { return t.to == .failed }
            return false
        })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.json.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "transition")
        #expect(object["kind"] as? String == "tap")
        #expect(object["from"] as? String == "possible")
        #expect(object["to"] as? String == "failed")
        #expect(object["cause"] as? String == "moved_too_far")
        #expect((object["reason"] as? String)?.hasSuffix("(tap_max_movement)") == true)
        let m = try #require(object["measurement"] as? [String: Any])
        #expect(m["key"] as? String == "tap_max_movement")
        #expect(m["limit"] as? Double == 5)
        #expect(m["unit"] as? String == "mm")
        #expect(m["bound"] as? String == "maximum")
    }

    @Test("numbers print with two decimals below 10 and none above, never trapping", arguments: [
        (6.2, "6.2"), (6.25, "6.25"), (1.416, "1.42"), (11.4, "11"), (50, "50"), (0.0617, "0.062"),
        (0, "0"), (-3.5, "-3.5"), (1e300, "9223372036854775807"), (Double.nan, "nan"), (Double.infinity, "inf"),
    ])
    func format(value: Double, text: String) {
        #expect(Measurement.format(value) == text)
    }
}
