import Foundation
import GestureCore
@testable import GestureScript
import Testing

/// Actions leave the core in non-decreasing `t`, held deliveries
/// (`requires_failure_of`) included, and nothing held is lost or given twice.
/// Long streams of taps, double taps, two-finger taps, knocks (a Lua kind),
/// swipes, drags and long presses, at random places with random pauses, are
/// generated here from seeds, against rules that wait on each other in chains:
/// long press waits for the double tap, which waits for the knock, as the tap
/// does; the pan waits for the swipes, and the left swipe for a slow Lua rhythm.
@Suite("Time order over mixed streams")
struct TimeOrderPropertyTests {
    static let rules = KnockExampleTests.source + """
        -- A rhythm slow to give up, running beside swipes: a left swipe waits
        -- up to a second on it, while right swipes and the rest go on.
        recognizer("slow-pair", {
          frame = function(r, f)
            for _, touch in ipairs(f.touches) do
              if touch.phase == "ended" and f.fingers == 1 then
                r.taps = (r.taps or 0) + 1
                if r.taps == 2 then return r:ended() end
                r:deadline(f.t + 1)
              end
            end
          end,
          timeout = function(r) r:fail("no second tap") end,
          reset = function(r) r.taps = nil end,
        })
        on("slow-pair", function(g) emit("pair") end, { name = "pair", simultaneous_with = { "page", "back" } })
        on("double tap", function(g) emit("double") end, { name = "double", requires_failure_of = "knock" })
        on("swipe left", function(g) emit("page") end, { name = "page", requires_failure_of = "pair" })
        on("swipe right", function(g) emit("page") end, { name = "back" })
        on("pan", {
          began = function(g) emit("pan") end,
          ended = function(g) emit("pan end") end,
          cancelled = function(g) emit("pan end") end,
        }, { requires_failure_of = { "page", "back" } })
        on("long press", function(g) emit("hold") end, { requires_failure_of = "double" })
        -- Two-finger taps then wait for a second, and are reported late, claiming
        -- nothing: delivered while a one-finger tap waits on the knock.
        on("2-finger double tap", function(g) emit("two double") end)
        """

    /// A small generator of its own (not synth's), so the streams do not follow synth's habits.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func pick(_ range: ClosedRange<Double>) -> Double { range.lowerBound + next() * (range.upperBound - range.lowerBound) }
    }

    static func stream(seed: UInt64, gestures: Int) -> [Strokes.Stroke] {
        var random = Random(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var strokes: [Strokes.Stroke] = []
        var t = 1.0
        for _ in 0..<gestures {
            let p = Vector(random.pick(40...210), random.pick(30...120))
            switch Int(random.next() * 7) {
            case 0: strokes += KnockExampleTests.tap(t, at: p); t += 0.08
            case 1: strokes += KnockExampleTests.tap(t, at: p) + KnockExampleTests.tap(t + 0.2, at: p); t += 0.28
            case 2: strokes += KnockExampleTests.twoFingerTap(t, at: p); t += 0.08
            case 3: strokes += KnockExampleTests.knock(t, at: p); t += 0.58
            case 4:
                let way = random.next() < 0.5 ? -1.0 : 1.0
                strokes.append(Strokes.line([p, p + Vector(35 * way, 1)], t, for: 0.15)); t += 0.15
            case 5: strokes.append(Strokes.line([p, p + Vector(8, 25)], t, for: 1.2)); t += 1.2
            default: strokes += KnockExampleTests.tap(t, at: p, for: 0.9); t += 0.9
            }
            // Pauses short enough that taps wait across sequences, long enough that some do not.
            t += random.pick(0.05...0.7)
            t = (t * 100).rounded() / 100
        }
        return strokes
    }

    @Test("deliveries in time order; every held gesture released or dropped once; no gesture given twice; every delivery run", arguments: 0..<40)
    func timeOrder(_ seed: Int) throws {
        let s = try UserGestureScenario(Self.rules, tracing: true)
        var deliveries: [Delivery] = []
        var records: [TraceRecord] = []
        var out: [Delivery] = []
        func take() {
            deliveries += out
            for d in out { s.runtime.dispatch(d) }
            out.removeAll()
            records += s.arena.traceRecords
            s.arena.traceRecords.removeAll()
            s.syncRules()
        }
        for frame in Strokes.frames(Self.stream(seed: UInt64(seed), gestures: 60)) {
            s.runtime.advanceClock(to: frame.time)
            s.handle(frame, into: &out)
            take()
        }
        s.finish(into: &out)
        take()

        let times = deliveries.map(\.event.time)
        let backwards = zip(times, times.dropFirst()).enumerated().first { $0.element.0 > $0.element.1 }
        #expect(backwards == nil, "seed \(seed): t went back at delivery \(backwards?.offset ?? -1): \(backwards.map { "\($0.element.0) → \($0.element.1)" } ?? "")")

        // Every hold ends once, released or dropped, and a release delivers.
        var open: [Int: Int] = [:]
        for record in records {
            switch record.entry {
            case .held(let rule, _): open[rule.index, default: 0] += 1
            case .released(let rule):
                #expect((open[rule.index] ?? 0) > 0, "seed \(seed): \(record.text) without a hold")
                open[rule.index, default: 0] -= 1
            case .dropped(let rule, _):
                // Also traced for a gesture dropped at once, never held.
                if (open[rule.index] ?? 0) > 0 { open[rule.index, default: 0] -= 1 }
            default: break
            }
        }
        #expect(open.values.allSatisfy { $0 == 0 }, "seed \(seed): holds never ended: \(open)")
        let released = records.filter { if case .released = $0.entry { return true } else { return false } }.count
        #expect(released > 0 || seed > 0, "the streams must exercise releases")

        // No gesture given twice: one first event per rule and gesture.
        let firsts = deliveries.filter(\.event.isFirstOfGesture).map { "\($0.rule) \($0.event.kind) \($0.event.start) \($0.event.fingers) \($0.event.taps)" }
        #expect(Set(firsts).count == firsts.count, "seed \(seed): \(firsts.count - Set(firsts).count) given twice")

        // A pan's gesture ends once after it began, before the next begins.
        var panOpen = false
        for d in deliveries where d.event.kind == .pan {
            if d.event.phase == .began { #expect(!panOpen, "seed \(seed): pan began twice at \(d.event.time)"); panOpen = true }
            if d.event.phase == .ended || d.event.phase == .cancelled { #expect(panOpen, "seed \(seed): pan ended unbegun"); panOpen = false }
        }
        #expect(!panOpen, "seed \(seed): a pan never ended")

        // Every delivery ran its handler (no cooldowns here): one line each, but a pan's changes.
        let run = deliveries.filter { $0.event.phase != .changed }.count
        #expect(s.emitted.count == run, "seed \(seed): \(s.emitted.count) actions for \(run) deliveries")
        let emittedTimes = s.emitted.compactMap { $0["t"] as? Double }
        #expect(zip(emittedTimes, emittedTimes.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed): actions out of time order")
    }
}
