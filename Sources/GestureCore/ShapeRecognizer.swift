/// A shape drawn with one finger, matched against templates when the finger
/// lifts (docs/shapes.md).
///
/// It never slows a swipe: it decides nothing while the finger is down, so a
/// stroke that is straight so far still fires as a swipe mid-gesture, and at
/// the lift a stroke a swipe would take (straight by the swipe's own lift
/// test, with no corner) is never a shape. Only strokes that are clearly not straight are
/// matched. Strokes that follow each other within `shape_gap` are one drawing
/// (an X drawn as two lines): after a lift that matched nothing yet, it waits
/// that long for the next stroke.
public struct ShapeRecognizer: Recognizer {
    public struct Config: Sendable {
        public var matcher = ShapeMatcher(templates: [])
        /// The least score a match of each bound shape needs: the lowest of its rules'.
        public var minimums: [String: Double] = [:]
        /// The least score of rules that bind any shape; nil when none does.
        public var anyShape: Double?
        public var minSize = Threshold.shapeMinSize.defaultValue
        public var gap = Threshold.shapeGap.defaultValue
        /// Strokes one drawing may have.
        public var maxStrokes = 4

        public init() {}

        public init(rules: [GestureSpec], thresholds: Thresholds, templates: [ShapeTemplate]) {
            matcher = ShapeMatcher(templates: templates)
            for spec in rules where spec.kind == .shape {
                let least = spec.minScore ?? thresholds[.shapeMinScore]
                if let name = spec.name {
                    minimums[name] = min(minimums[name] ?? least, least)
                } else {
                    anyShape = min(anyShape ?? least, least)
                }
            }
            minSize = thresholds[.shapeMinSize]
            gap = thresholds[.shapeGap]
        }

        /// The least score at which `name` is reported, or nil when no rule binds it.
        func minimum(for name: String) -> Double? {
            switch (minimums[name], anyShape) {
            case let (a?, b?): return min(a, b)
            case let (a?, nil): return a
            case let (nil, b?): return b
            case (nil, nil): return nil
            }
        }
    }

    /// The strokes drawn so far, as one path: the finger's positions (and the
    /// jump from each lift to the next landing), at least `spacing` apart.
    struct Drawing: Sendable {
        var points: [Vector]
        /// The same path, for the swipe's test of straightness.
        var path = StrokePath()
        var strokes = 1
        var start: Double

        init(at point: Vector, time: Double) {
            points = [point]
            start = time
        }

        mutating func add(_ point: Vector) {
            guard let last = points.last else { points.append(point); return }
            guard point.distanceSquared(to: last) >= Drawing.spacing * Drawing.spacing else { return }
            path.advance(by: point - last)
            points.append(point)
            if points.count > Drawing.maxPoints {
                // A drawing that goes on and on keeps its shape at half the detail.
                points = points.enumerated().compactMap { $0.offset % 2 == 0 || $0.offset == points.count - 1 ? $0.element : nil }
            }
        }

        var size: Double {
            var lo = Vector(Double.infinity, Double.infinity), hi = Vector(-Double.infinity, -Double.infinity)
            for p in points {
                lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
                hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
            }
            return points.isEmpty ? 0 : max(hi.x - lo.x, hi.y - lo.y)
        }

        var centre: Vector {
            var lo = Vector(Double.infinity, Double.infinity), hi = Vector(-Double.infinity, -Double.infinity)
            for p in points {
                lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
                hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
            }
            return points.isEmpty ? .zero : (lo + hi) / 2
        }

        /// Finer than the swipe's path: a small shape keeps its corners.
        static let spacing = 0.5
        static let maxPoints = 4096
    }

    enum Phase: Sendable {
        /// Nothing drawn since the last reset.
        case idle
        /// A finger is drawing.
        case drawing(Drawing)
        /// The finger lifted and nothing matched yet: waiting `shape_gap` for
        /// another stroke; `why` is the failure if none comes.
        case between(Drawing, why: TransitionCause)
        case recognized
        case failed
    }

    public let kind = GestureKind.shape
    public private(set) var deadline: Double?
    public var config: Config
    private(set) var phase = Phase.idle

    public init(config: Config) {
        self.config = config
    }

    public var state: RecognizerState {
        switch phase {
        case .idle, .drawing, .between: return .possible
        case .recognized: return .ended
        case .failed: return .failed
        }
    }

    public mutating func reset() {
        phase = .idle
        deadline = nil
    }

    public mutating func handle(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [Transition]) {
        var drawing: Drawing
        switch phase {
        case .recognized, .failed:
            return
        case .idle:
            guard tracker.isActive else { return }
            drawing = Drawing(at: tracker.centroid, time: frame.time)
        case .drawing(let d):
            drawing = d
        case .between(let d, _):
            guard tracker.isActive else { return }
            // The next stroke of the same drawing: the jump to it is part of the shape.
            drawing = d
            drawing.strokes += 1
            deadline = nil
        }
        // Dropped while the drawing grows, so that it is not copied.
        phase = .idle
        if tracker.anyCancelled { return fail(.touchCancelled, into: &out) }
        if tracker.fingers > 1 { return fail(.tooManyFingers(tracker.fingers, kind), into: &out) }
        drawing.add(tracker.centroid)
        if tracker.isActive {
            phase = .drawing(drawing)
        } else {
            judge(drawing, at: frame.time, tracker: tracker, into: &out)
        }
    }

    public mutating func advance(to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        guard let due = deadline, due <= time else { return }
        deadline = nil
        guard case .between(_, let why) = phase else { return }
        fail(why, into: &out)
    }

    public mutating func forceFail(at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        guard state == .possible else { return }
        fail(cause, into: &out)
    }

    /// At a lift: the drawing is a shape, or waits for another stroke, or fails.
    private mutating func judge(_ drawing: Drawing, at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        switch config.judge(drawing) {
        case .tooSmall(let why): fail(why, into: &out)
        case .none(let why): wait(drawing, why, at: time, into: &out)
        case .shape(let match): recognize(match, drawing, at: time, tracker: tracker, into: &out)
        }
    }

    /// Not a shape yet: waits `shape_gap` for another stroke, or fails.
    private mutating func wait(_ drawing: Drawing, _ why: TransitionCause, at time: Double, into out: inout [Transition]) {
        guard config.gap > 0, drawing.strokes < config.maxStrokes else { return fail(why, into: &out) }
        phase = .between(drawing, why: why)
        deadline = time + config.gap
    }

    private mutating func recognize(_ match: ShapeMatcher.Match, _ drawing: Drawing, at time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        let duration = time - drawing.start
        let centre = drawing.centre
        let event = GestureEvent(
            kind: .shape, phase: .ended, fingers: 1, time: time, duration: duration,
            delta: (drawing.points.last ?? .zero) - (drawing.points.first ?? .zero),
            velocity: duration > 0 ? drawing.path.length / duration : 0,
            position: centre, normalized: tracker.normalized(centre),
            resting: tracker.resting, device: tracker.device, name: match.name, score: match.score)
        out.append(Transition(kind: kind, from: .possible, to: .ended, cause: .lift, event: event))
        phase = .recognized
        deadline = nil
    }

    /// Why a path, drawn as one stroke, is no shape however it matches
    /// (`ShapeFilter`), or nil: what `shape add` refuses to learn.
    public static func refusal(of points: [Vector]) -> TransitionCause? {
        guard let first = points.first else { return .straightStroke }
        var drawing = Drawing(at: first, time: 0)
        for p in points.dropFirst() { drawing.add(p) }
        return ShapeFilter.refusal(of: drawing.points, path: drawing.path)
    }

    private mutating func fail(_ cause: TransitionCause, into out: inout [Transition]) {
        out.append(Transition(kind: kind, from: .possible, to: .failed, cause: cause))
        phase = .failed
        deadline = nil
    }
}
