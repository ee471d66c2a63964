import Foundation
import GestureCore
@testable import GestureScript

/// Rules, a core and touches: what `run` does with a file, without the binary,
/// so a scenario can say exactly when each finger lands, moves and lifts.
final class UserGestureScenario {
    let runtime: ScriptRuntime
    let host: RecordingHost
    var arena: GestureArena

    init(_ source: String, tracing: Bool = false) throws {
        (runtime, host) = try loadRules(source)
        arena = GestureArena(rules: runtime.coreRules, thresholds: runtime.thresholds)
        arena.tracing = tracing
        arena.setUserGestures(recognizers: runtime.recognizerNames, templates: BuiltinShapes.templates)
    }

    /// Runs frames to the end of input; the actions emitted, in order.
    @discardableResult
    func run(_ frames: [TouchFrame]) -> [String] {
        var out: [Delivery] = []
        for frame in frames {
            runtime.advanceClock(to: frame.time)
            handle(frame, into: &out)
            dispatch(&out)
        }
        finish(into: &out)
        dispatch(&out)
        return actions
    }

    /// The core's calls as the engine makes them: its questions answered by
    /// the rules' Lua before the next.
    func handle(_ frame: TouchFrame, into out: inout [Delivery]) {
        arena.handle(frame, into: &out)
        answerQuestions(into: &out)
    }

    /// Input time passes to `time` as the engine's loop passes it: one
    /// deadline per call, the earliest, each answered before the next.
    /// Returns how many calls it took.
    @discardableResult
    func advanceOneDeadlineAtATime(to time: Double, into out: inout [Delivery], atMost limit: Int) -> Int {
        var calls = 0
        while let due = arena.nextDeadline, due <= time, calls < limit {
            arena.advance(to: due, into: &out)
            answerQuestions(into: &out)
            calls += 1
        }
        return calls
    }

    func finish(into out: inout [Delivery]) {
        arena.finish(into: &out)
        answerQuestions(into: &out)
    }

    private func answerQuestions(into out: inout [Delivery]) {
        guard let driver = runtime.recognizerDriver else { return }
        while let question = arena.question {
            var reply = ExternalReply()
            driver.call(question.request, tracker: question.tracker, into: &reply)
            arena.answer(reply, into: &out)
        }
    }

    private func dispatch(_ out: inout [Delivery]) {
        for delivery in out { runtime.dispatch(delivery) }
        out.removeAll()
        syncRules()
    }

    /// The rules handed over only when the script changed them (a cooldown,
    /// a mode), as the engine does: a frame that changes nothing must cost
    /// the arena nothing, and a test that hands them over every frame would
    /// hide what depends on it.
    private var rulesChangesSeen = 0
    func syncRules() {
        guard host.rulesChanges != rulesChangesSeen else { return }
        rulesChangesSeen = host.rulesChanges
        arena.replaceRules(runtime.coreRules, thresholds: runtime.thresholds)
    }

    var actions: [String] { host.lines.compactMap { json($0)?["action"] as? String } }
    var emitted: [[String: Any]] { host.lines.compactMap(json) }

    func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

/// One-finger strokes, each its own touch, sampled at 100 Hz on a 250 × 150 mm surface.
enum Strokes {
    struct Stroke {
        var start: Double
        var duration: Double
        var path: [Vector]
    }

    static let surface = Surface(width: 250, height: 150)

    static func tap(at p: Vector, _ start: Double, for duration: Double = 0.08) -> Stroke {
        Stroke(start: start, duration: duration, path: [p, p + Vector(0.3, 0.2)])
    }

    static func line(_ points: [Vector], _ start: Double, for duration: Double) -> Stroke {
        Stroke(start: start, duration: duration, path: points)
    }

    /// Frames for strokes that may overlap in time; each lands, moves along its path at an even pace, and lifts.
    static func frames(_ strokes: [Stroke], rate: Double = 100) -> [TouchFrame] {
        var times: Set<Double> = []
        for s in strokes {
            var k = 0.0
            while k * (1 / rate) < s.duration { times.insert(s.start + k / rate); k += 1 }
            times.insert(s.start + s.duration)
        }
        var frames: [TouchFrame] = []
        for t in times.sorted() {
            var touches: [Touch] = []
            for (i, s) in strokes.enumerated() where t >= s.start && t <= s.start + s.duration {
                let phase: TouchPhase = t == s.start ? .began : (t == s.start + s.duration ? .ended : .moved)
                touches.append(Touch(id: i + 1, position: point(s, at: (t - s.start) / s.duration), phase: phase))
            }
            if !touches.isEmpty { frames.append(TouchFrame(time: t, touches: touches, surface: surface)) }
        }
        return frames
    }

    static func point(_ s: Stroke, at share: Double) -> Vector {
        guard s.path.count > 1 else { return s.path.first ?? .zero }
        var lengths = [0.0]
        for i in 1..<s.path.count { lengths.append(lengths[i - 1] + s.path[i].distance(to: s.path[i - 1])) }
        let target = min(max(share, 0), 1) * (lengths.last ?? 0)
        var i = 1
        while i < s.path.count - 1, lengths[i] < target { i += 1 }
        let span = lengths[i] - lengths[i - 1]
        let f = span > 0 ? (target - lengths[i - 1]) / span : 0
        return s.path[i - 1] + (s.path[i] - s.path[i - 1]) * f
    }
}

/// The worked examples of docs/lua-api.md, by their `-- example:` line.
enum DocExamples {
    static let text: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)) ?? ""
    }()

    static func code(_ name: String) -> String {
        guard let marker = text.range(of: "-- example: \(name)\n"),
              let end = text.range(of: "```", range: marker.upperBound..<text.endIndex) else { return "" }
        return String(text[marker.lowerBound..<end.lowerBound])
    }
}
