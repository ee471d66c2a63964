/// Which rule a mouse stroke goes to. A stroke is read in eight directions
/// when a live rule for its button binds a diagonal, else in four, as the
/// swipe recognizer reads swipes: a stroke drawn at 45° is `up-left` beside
/// an `up-left` rule and `left` or `up` without one, and an L drawn left then
/// up is `left-up` either way, never a diagonal (docs/mouse.md).
public struct StrokeRules: Sendable {
    public var fourWay = MouseStrokeReading()
    public var eightWay = MouseStrokeReading(eightWay: true)

    public init() {}

    /// The rule that takes it, and the stroke as read.
    public struct Match: Equatable, Sendable {
        public var rule: RuleID
        public var stroke: MouseStrokeReading.Stroke
    }

    /// Rules that may take a stroke drawn with `button` at `time`: live, out
    /// of their cooldown, for that button (a rule naming none is for `strokeButton`).
    func candidates(_ rules: [GestureRule], button: MouseButton, strokeButton: MouseButton, at time: Double) -> [Int] {
        rules.indices.filter { i in
            rules[i].spec.kind == .stroke && (rules[i].spec.button ?? strokeButton) == button && rules[i].mayReceive(at: time)
        }
    }

    /// The stroke as those rules read it, or why it is none.
    public func reading(_ path: [MouseStrokeReading.Point], button: MouseButton, strokeButton: MouseButton, rules: [GestureRule],
                        at time: Double) -> Result<MouseStrokeReading.Stroke, MouseStrokeReading.Shortfall> {
        let eight = candidates(rules, button: button, strokeButton: strokeButton, at: time).contains { rules[$0].spec.arms?.contains(where: \.isDiagonal) ?? false }
        return (eight ? eightWay : fourWay).read(path)
    }

    /// Among `rules` (index for index with the script's), the one a stroke
    /// drawn with `button` along `path` goes to: the application's rule
    /// before the general one, then the narrower spec, then the later rule,
    /// as for touch gestures.
    public func match(_ path: [MouseStrokeReading.Point], button: MouseButton, strokeButton: MouseButton, rules: [GestureRule], at time: Double) -> Match? {
        guard case .success(let stroke) = reading(path, button: button, strokeButton: strokeButton, rules: rules, at: time) else { return nil }
        var best: (rule: Int, rank: Int, specificity: Int)?
        for i in candidates(rules, button: button, strokeButton: strokeButton, at: time) {
            if let arms = rules[i].spec.arms, arms != stroke.directions { continue }
            let rank = rules[i].contextRank, specificity = rules[i].spec.specificity
            if let b = best, (b.rank, b.specificity) > (rank, specificity) { continue }
            best = (i, rank, specificity)
        }
        return best.map { Match(rule: RuleID($0.rule), stroke: stroke) }
    }

    /// The gesture a handler gets for a stroke: `direction` is its arms as
    /// the rules spell them (a field, since a sequence is no one direction),
    /// `button` the button it was drawn with.
    public static func event(_ stroke: MouseStrokeReading.Stroke, button: MouseButton, path: [MouseStrokeReading.Point], device: Int) -> GestureEvent {
        let first = path.first ?? MouseStrokeReading.Point(time: 0, x: 0, y: 0)
        let last = path.last ?? first
        let duration = max(0, last.time - first.time)
        return GestureEvent(kind: .stroke, phase: .ended, fingers: 1, direction: stroke.directions.count == 1 ? stroke.directions[0] : nil,
                            time: last.time, duration: duration, delta: Vector(last.x - first.x, last.y - first.y),
                            velocity: duration > 0 ? stroke.length / duration : 0, position: Vector(last.x, last.y), device: device,
                            name: stroke.name,
                            fields: [GestureField(name: "direction", value: .string(stroke.name)), GestureField(name: "button", value: .string(button.rawValue))],
                            start: first.time)
    }
}
