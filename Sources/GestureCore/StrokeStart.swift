/// How a stroke drawn with a held mouse button may begin, as the rules for
/// that button bind it: the first arms they start with. Once a path's first
/// arm is clear (straight for 5 mm from the press, and well inside one of the
/// 4 or 8 directions `MouseStrokeReading` names), a start no rule binds is no
/// stroke the rules could take: a drag, which the desktop may have at once.
public struct StrokeStart: Equatable, Sendable {
    /// The first arms of the button's stroke rules.
    public var arms: Set<Direction>
    /// Read in 8 directions (a rule for the button binds a diagonal), as `StrokeRules` reads the stroke.
    public var eightWay: Bool

    public init(arms: Set<Direction>, eightWay: Bool) {
        self.arms = arms
        self.eightWay = eightWay
    }

    /// Distance from the press, mm, at which the first arm is judged: a stroke's
    /// shortest (`MouseStrokeReading.minLength`), so that a hand's slip is never
    /// judged; past twice it, a path still unclear is held as before.
    public static let judgedFrom = 5.0
    public static let judgedUntil = 10.0
    /// The share of a direction's half-sector its arm must lie within, from
    /// the sector's middle: 30° of the 45° in 4 directions, 15° of 22.5° in 8.
    public static let clearShare = 2.0 / 3.0

    public enum Verdict: Equatable, Sendable {
        /// Not yet (too short, or past judging), or not clear: held as before.
        case undecided
        /// A bound rule may still take it.
        case bound(Direction)
        /// No bound rule starts so: a drag.
        case unbound(Direction)
    }

    /// The path so far, millimetres from the press (its first point the press's).
    public func judge(_ path: [MouseStrokeReading.Point]) -> Verdict {
        guard let last = path.last, last.x.isFinite, last.y.isFinite else { return .undecided }
        let reach = Vector(last.x, last.y)
        guard reach.length >= Self.judgedFrom, reach.length < Self.judgedUntil else { return .undecided }
        let reading = MouseStrokeReading(eightWay: eightWay)
        let points = path.filter { $0.x.isFinite && $0.y.isFinite }.map { Vector($0.x, $0.y) }
        // A corner already: the first arm is no straight line from the press, and the reading decides at the end.
        guard reading.reduce(points).count == 2, let direction = clearHeading(of: reach) else { return .undecided }
        return arms.contains(direction) ? .bound(direction) : .unbound(direction)
    }

    /// The direction `d` is well inside of, or nil near a boundary.
    func clearHeading(of d: Vector) -> Direction? {
        let reading = MouseStrokeReading(eightWay: eightWay)
        guard let direction = reading.heading(of: d) else { return nil }
        // Degrees from the nearest axis, 0 to 45.
        let angle = atan2Degrees(min(abs(d.x), abs(d.y)), max(abs(d.x), abs(d.y)))
        let halfSector = eightWay ? 22.5 : 45.0
        let fromMiddle = direction.isDiagonal ? 45 - angle : angle
        return fromMiddle <= Self.clearShare * halfSector ? direction : nil
    }

    /// Each button's starts, as the live rules bind them; a button a rule binds
    /// with no direction, or a shape, starts any way and is not listed.
    public static func bound(_ rules: [GestureRule], strokeButton: MouseButton) -> [MouseButton: StrokeStart] {
        var starts: [MouseButton: StrokeStart] = [:]
        var anyWay: Set<MouseButton> = []
        for rule in rules where rule.isActive {
            switch rule.spec.kind {
            case .stroke:
                let button = rule.spec.button ?? strokeButton
                guard let arms = rule.spec.arms, let first = arms.first else {
                    anyWay.insert(button)
                    continue
                }
                var start = starts[button] ?? StrokeStart(arms: [], eightWay: false)
                start.arms.insert(first)
                if arms.contains(where: \.isDiagonal) { start.eightWay = true }
                starts[button] = start
            case .shape:
                if let button = rule.spec.button { anyWay.insert(button) }
            default:
                continue
            }
        }
        for button in anyWay { starts[button] = nil }
        return starts
    }
}
