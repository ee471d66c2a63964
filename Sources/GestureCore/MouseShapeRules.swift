/// Which rule a shape drawn with a held mouse button goes to: a `shape` rule
/// that names the button (`{ kind = "shape", button = "right", name = "circle" }`).
/// The drawing is judged as a finger's is (`ShapeRecognizer.Config.judge`), against
/// the same templates, built-in and taught, with the scores those rules ask;
/// a mouse draws one stroke per press, so there is no waiting for a second.
public struct MouseShapeRules: Sendable {
    public var templates: [ShapeTemplate]
    public var thresholds: Thresholds

    public init(templates: [ShapeTemplate], thresholds: Thresholds) {
        self.templates = templates
        self.thresholds = thresholds
    }

    public struct Match: Equatable, Sendable {
        public var rule: RuleID
        public var shape: ShapeMatcher.Match
    }

    public enum Verdict: Equatable, Sendable {
        case taken(Match)
        /// Why no rule takes the drawing, in `explain`'s words.
        case refused(TransitionCause)
    }

    /// Shape rules that may take a drawing made with `button` at `time`.
    func candidates(_ rules: [GestureRule], button: MouseButton, at time: Double) -> [Int] {
        rules.indices.filter { rules[$0].spec.kind == .shape && rules[$0].spec.button == button && rules[$0].mayReceive(at: time) }
    }

    /// Whether a live rule draws shapes with `button`: its press is held while one may come.
    public static func binds(_ rules: [GestureRule], button: MouseButton) -> Bool {
        rules.contains { $0.isActive && $0.spec.kind == .shape && $0.spec.button == button }
    }

    /// The rule a path (millimetres from the press) goes to, or why it goes to
    /// none; nil when no rule draws shapes with this button.
    public func match(_ path: [MouseStrokeReading.Point], button: MouseButton, rules: [GestureRule], at time: Double) -> Verdict? {
        let live = candidates(rules, button: button, at: time)
        guard !live.isEmpty else { return nil }
        let config = ShapeRecognizer.Config(rules: live.map { rules[$0].spec }, thresholds: thresholds, templates: templates)
        let shape: ShapeMatcher.Match
        switch config.judge(Self.drawing(path)) {
        case .tooSmall(let why), .none(let why): return .refused(why)
        case .shape(let m): shape = m
        }
        var best: (rule: Int, rank: Int, specificity: Int)?
        for i in live {
            let spec = rules[i].spec
            if let name = spec.name, name != shape.name { continue }
            if shape.score < spec.minScore ?? thresholds[.shapeMinScore] { continue }
            let rank = rules[i].contextRank, specificity = spec.specificity
            if let b = best, (b.rank, b.specificity) > (rank, specificity) { continue }
            best = (i, rank, specificity)
        }
        guard let best else { return .refused(.shapeUnmatched(best: shape.name, .under("scored", shape.score, .shapeMinScore, limit: thresholds[.shapeMinScore]))) }
        return .taken(Match(rule: RuleID(best.rule), shape: shape))
    }

    static func drawing(_ path: [MouseStrokeReading.Point]) -> ShapeRecognizer.Drawing {
        let first = path.first ?? MouseStrokeReading.Point(time: 0, x: 0, y: 0)
        var drawing = ShapeRecognizer.Drawing(at: Vector(first.x, first.y), time: first.time)
        for p in path.dropFirst() where p.x.isFinite && p.y.isFinite { drawing.add(Vector(p.x, p.y)) }
        return drawing
    }

    /// The gesture a handler gets: `shape` and `score` as for a finger's
    /// drawing, and the `button` it was drawn with.
    public static func event(_ match: ShapeMatcher.Match, button: MouseButton, path: [MouseStrokeReading.Point], device: Int) -> GestureEvent {
        let d = drawing(path)
        let first = path.first ?? MouseStrokeReading.Point(time: 0, x: 0, y: 0)
        let last = path.last ?? first
        let duration = max(0, last.time - first.time)
        return GestureEvent(kind: .shape, phase: .ended, fingers: 1, time: last.time, duration: duration,
                            delta: Vector(last.x - first.x, last.y - first.y),
                            velocity: duration > 0 ? d.path.length / duration : 0, position: d.centre, device: device,
                            name: match.name, score: match.score,
                            fields: [GestureField(name: "button", value: .string(button.rawValue))], start: first.time)
    }
}
