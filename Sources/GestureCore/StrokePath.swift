/// The path the hand's fingers take together in one touch sequence: the running
/// sum of their mean movement each frame, so a finger landing or lifting adds no
/// jump. Kept as vertices at least `spacing` apart, so that sensor noise adds
/// little length. Swipes read its shape: a swipe is a roughly straight stroke.
public struct StrokePath: Sendable {
    /// Vertices are at least this far apart, mm: four times the sensor noise of
    /// real recordings (about 0.25 mm), well under any stroke that matters.
    static let spacing = 1.0
    /// The shape is judged over thirds of the path, but never under this, mm.
    static let minPart = 3.0
    /// A touchpad's contact may land a few mm off and come back at its next
    /// report as the fingertip flattens (the ALPS pad's by 2.1-3.5 mm, the
    /// cyapa's by up to 1.4 mm and once 5.1), and a hand at rest wanders about
    /// its landing with the sensor's noise. Within this distance of where it
    /// landed, a path that winds is that touchdown, not the stroke: the shape
    /// starts again from where it has got to (`advance`).
    static let touchdownRadius = 3.5

    /// Where the hand has got to, mm from where the sequence began.
    public private(set) var position = Vector.zero
    private var vertices: [Vector] = [.zero]
    /// The length of the path through the vertices, mm.
    private var vertexLength = 0.0
    /// A first step that lies this far off the line of the course after it,
    /// mm, or goes back against it, was the landing report settling, not the
    /// stroke: at the shortest third judged (3 mm) it would head 14° off.
    static let landingOffCourse = 0.75
    /// Whether the hand has left the touchdown (`touchdownRadius`) yet.
    private var leftTouchdown = false
    /// Where the shape began and where the hand was when a contact first
    /// moved after its landing report, until the course after it shows
    /// whether that report was off.
    private var landingStep: (from: Vector, to: Vector)?

    public init() {}

    mutating func reset() {
        position = .zero
        vertices.removeAll(keepingCapacity: true)
        vertices.append(.zero)
        vertexLength = 0
        leftTouchdown = false
        landingStep = nil
    }

    /// Starts the shape afresh where the hand is now: the path so far was not
    /// yet a stroke (see StrokeOnset). The position keeps counting from where
    /// the sequence began.
    mutating func restartShape() {
        vertices.removeAll(keepingCapacity: true)
        vertices.append(position)
        vertexLength = 0
    }

    /// A contact made its first move since its landing report, within the
    /// touchdown. If the course the hand then takes goes back against that
    /// step, or lies `landingOffCourse` off its line, the landing report was
    /// off (the fingertip flattening) and the shape starts from here instead.
    mutating func settleLanding() {
        if !leftTouchdown { landingStep = (origin, position) }
    }

    /// Once the hand has gone a vertex's spacing past where a landing settled:
    /// whether its first step went another way than its course.
    private mutating func judgeLanding() {
        guard let step = landingStep, position.distance(to: step.to) >= StrokePath.spacing else { return }
        landingStep = nil
        // The touchdown's own rule may have started the shape afresh since.
        guard origin == step.from else { return }
        let first = step.to - step.from
        let course = (position - step.to) / position.distance(to: step.to)
        let across = abs(first.x * course.y - first.y * course.x)
        guard first.dot(course) < 0 || across > StrokePath.landingOffCourse else { return }
        vertices.removeAll(keepingCapacity: true)
        vertices.append(step.to)
        vertexLength = 0
    }

    /// Where the shape begins: where the sequence began, or where the stroke did.
    private var origin: Vector { vertices.first ?? .zero }

    /// How far the shape has got from where it began, mm.
    private var progress: Vector { position - origin }

    mutating func advance(by delta: Vector) {
        position += delta
        judgeLanding()
        if !leftTouchdown {
            // A stroke that leaves its landing straight keeps its start (a
            // circle shows its turn from there); a touchdown's jump back or
            // wander does not count against the stroke that follows.
            if position.length > StrokePath.touchdownRadius {
                leftTouchdown = true
            } else if efficiency < StrokeShape.commit.minEfficiency {
                restartShape()
                return
            }
        }
        guard let last = vertices.last else { return }
        let d = position - last
        if d.x * d.x + d.y * d.y >= StrokePath.spacing * StrokePath.spacing {
            vertexLength += d.length
            vertices.append(position)
        }
    }

    /// Length along the path, mm.
    public var length: Double { vertexLength + position.distance(to: vertices.last ?? .zero) }

    /// How directly the path went where it went: 1 for a straight line, about
    /// 0.9 for a quarter circle, 0.64 for a half circle, near 0 for a full one.
    public var efficiency: Double {
        let total = length
        return total > 0 ? min(progress.length / total, 1) : 1
    }

    /// The shape measures, in degrees: how far the heading of the path's last
    /// third has turned from its first third's (`turn`), and from the stroke as
    /// a whole (`deviation`). A straight stroke has both near 0; an arc of θ has
    /// a turn of about 2θ/3.
    public var headings: (turn: Double, deviation: Double) {
        let h = measuredHeadings
        return (h.turn, h.deviation)
    }

    /// How fast the heading turns, degrees per millimetre of path: the turn
    /// between the first and last thirds over the path between their middles.
    /// An arc of radius r turns 57.3 / r °/mm wherever it is measured, so a
    /// circle shows itself by this before it has turned far; nil on a path too
    /// short for its thirds to be apart.
    public var turnRate: Double? {
        let h = measuredHeadings
        return h.between >= StrokePath.minPart ? h.turn / h.between : nil
    }

    private var measuredHeadings: (turn: Double, deviation: Double, between: Double) {
        let total = length
        guard total > 0, progress.length > 0 else { return (0, 0, 0) }
        let part = max(StrokePath.minPart, total / 3)
        let firstEnd = point(atLength: min(part, total))
        let lastStart = point(atLength: max(total - part, 0))
        let first = firstEnd - origin
        let last = position - lastStart
        guard first.length > 0, last.length > 0 else { return (0, 0, 0) }
        return (abs(normalizedDegrees(last.degrees - first.degrees)), abs(normalizedDegrees(last.degrees - progress.degrees)), total - part)
    }

    /// The point `s` mm along the path from its start.
    private func point(atLength s: Double) -> Vector {
        var walked = 0.0
        var previous = vertices.first ?? .zero
        for k in 1...vertices.count {
            let v = k < vertices.count ? vertices[k] : position
            let l = previous.distance(to: v)
            if walked + l >= s, l > 0 {
                return previous + (v - previous) * ((s - walked) / l)
            }
            walked += l
            previous = v
        }
        return position
    }
}

/// When a path is a stroke: the swipe recognizer's test of shape. A circle, an S,
/// a stroke that turns back on itself is no swipe, however fast its first arc;
/// a stroke bowed as hands bow them is one.
public struct StrokeShape: Sendable {
    public enum Flaw: Equatable, Sendable, CustomStringConvertible {
        /// The path went a long way round: `efficiency` of it was progress.
        case winding(efficiency: Double)
        /// Its heading turned this far between its first and last thirds.
        case turning(degrees: Double)
        /// Its last third heads this far off the stroke as a whole.
        case veering(degrees: Double)
        /// Its heading turns this fast, as a circle's does.
        case curving(degreesPerMillimetre: Double)

        public var description: String {
            switch self {
            case .winding(let e): return "it wound (\(Int(clamping: (e * 100).rounded()))% of its path was progress)"
            case .turning(let d): return "it turned \(Int(clamping: d.rounded()))°"
            case .veering(let d): return "it veered \(Int(clamping: d.rounded()))° off its course"
            case .curving(let r): return "it curved like a circle (\(Int(clamping: (r * 10).rounded()))° every 10 mm)"
            }
        }
    }

    public var minEfficiency: Double
    public var maxTurn: Double
    public var maxDeviation: Double
    /// Degrees per millimetre; nil: any.
    public var maxTurnRate: Double?

    /// While the fingers are down, a commit is a prediction: only a stroke that
    /// is already nearly straight. Measured where they committed with a 0.1 s settle, 1,400
    /// generated swipes (bowed by up to a tenth of their length, noisy,
    /// 50–250 Hz) reach an efficiency of 0.95 or more; 99% turn at most 22° and
    /// veer at most 11°. With these limits a one-finger circle of up to 20 mm
    /// radius at 100–400 mm/s never commits: by the time its fingers have
    /// settled it has turned too far, and it only turns further. A wider circle
    /// drawn at about the commit speed (25 mm at 150 mm/s) has drawn a 30° arc
    /// when it settles: a bowed swipe by any rule that lets bowed swipes fire
    /// early, and it does. The few bowed swipes held back here are judged at
    /// their lift instead. The turn was 22° while a swipe's count settled at
    /// 0.1 s; settled at 60 ms a swipe commits on a shorter path,
    /// which has turned less, and a 20 mm circle at 150 mm/s had turned 20° when
    /// it first reached 10 mm: 15° keeps every circle out.
    public static let commit = StrokeShape(minEfficiency: 0.93, maxTurn: 15, maxDeviation: 12, maxTurnRate: 1.1)
    /// At the lift the whole stroke is there to judge: a bow is fine, a hook,
    /// a quarter circle or more, an S or a return is not.
    public static let lift = StrokeShape(minEfficiency: 0.8, maxTurn: 50, maxDeviation: 35)

    public func flaw(of path: StrokePath) -> Flaw? {
        let e = path.efficiency
        if e < minEfficiency { return .winding(efficiency: e) }
        let h = path.headings
        if h.turn > maxTurn { return .turning(degrees: h.turn) }
        if h.deviation > maxDeviation { return .veering(degrees: h.deviation) }
        if let maxTurnRate, let rate = path.turnRate, rate > maxTurnRate { return .curving(degreesPerMillimetre: rate) }
        return nil
    }
}
