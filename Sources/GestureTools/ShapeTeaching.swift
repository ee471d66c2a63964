import GestureEngine
import GestureCore

/// `gesturemap shape add`: templates learned from a recording. Each drawing in
/// it is a sample: a one-finger stroke, or strokes that follow each other within
/// the gap (an X drawn as two lines), as the shape recognizer joins them.
public struct ShapeTeaching {
    public var name: String
    public var options: RunOptions
    /// Strokes closer in time than this are one drawing, s.
    public var gap: Double
    public var anyDirection: Bool

    public init(name: String, options: RunOptions, gap: Double = Threshold.shapeGap.defaultValue, anyDirection: Bool = false) {
        self.name = name
        var o = options.forReplayTool
        // The replay only collects touches: no rules, no shapes of its own.
        o.rulesPath = nil
        o.shapesPath = nil
        o.trace = nil
        self.options = o
        self.gap = gap
        self.anyDirection = anyDirection
    }

    /// What was learned: a line for the shapes file per sample, and why others were left out.
    public struct Lesson: Sendable {
        public var lines: [String] = []
        public var skipped: [String] = []
        public var templates: [ShapeTemplate] = []
    }

    /// Points kept per template: the matcher resamples to 32, so 64 loses nothing.
    static let storedPoints = 64

    public enum Failure: Error {
        case run(ExitCode)
    }

    /// Replays the recording and learns from it. Messages of the run go to `console`.
    public func learn(console: Console) -> Result<Lesson, Failure> {
        let capture = SessionCapture()
        guard let engine = Engine(options: options, console: console, output: CollectingSink()) else { return .failure(.run(.unavailable)) }
        engine.observer = capture
        let status = engine.run()
        guard status == .ok else { return .failure(.run(status)) }
        return .success(lesson(from: capture.sequences))
    }

    func lesson(from sequences: [CapturedSequence]) -> Lesson {
        var lesson = Lesson()
        for (number, drawing) in drawings(sequences, skipped: &lesson.skipped).enumerated() {
            let label = "drawing \(number + 1) (at \(fixed(drawing.start, 2)) s)"
            guard let template = ShapeTemplate(name: name, path: drawing.points, anyDirection: anyDirection) else {
                lesson.skipped.append("\(label): it does not go anywhere")
                continue
            }
            switch ShapeRecognizer.refusal(of: drawing.points) {
            case .straightStroke?:
                lesson.skipped.append("\(label): a straight stroke is a swipe or a drag, never a shape")
                continue
            case let refusal?:
                lesson.skipped.append("\(label): \(refusal)")
                continue
            case nil:
                break
            }
            let points = ShapeStroke.resampledPoints(drawing.points, count: Self.storedPoints) ?? drawing.points
            let origin = points.first ?? .zero
            lesson.lines.append(ShapeFile.line(name: name, points: points.map { $0 - origin }, anyDirection: anyDirection ? true : nil))
            lesson.templates.append(template)
        }
        return lesson
    }

    struct Drawing {
        var start: Double
        var end: Double
        var device: Int
        var points: [Vector]
    }

    /// One-finger sequences, joined when the next begins within `gap` of the last's end on the same device.
    func drawings(_ sequences: [CapturedSequence], skipped: inout [String]) -> [Drawing] {
        var out: [Drawing] = []
        for (i, s) in sequences.enumerated() {
            guard s.paths.count == 1, let path = s.paths.first else {
                skipped.append("touch sequence \(i + 1) (at \(fixed(s.start, 2)) s): \(s.paths.count) fingers; a shape is drawn with one")
                continue
            }
            if var last = out.last, last.device == s.device, s.start - last.end <= gap {
                last.points += path.points
                last.end = s.end
                out[out.count - 1] = last
            } else {
                out.append(Drawing(start: s.start, end: s.end, device: s.device, points: path.points))
            }
        }
        return out
    }
}
