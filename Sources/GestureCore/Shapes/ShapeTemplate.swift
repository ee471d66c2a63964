/// A named shape to match strokes against, with every way it may be drawn
/// worked out once: the other direction, and for a loop (a circle, a star) every
/// starting point, going round once or a little more.
public struct ShapeTemplate: Sendable {
    public let name: String
    /// The shape as drawn or defined, resampled and normalized.
    public let stroke: ShapeStroke
    /// It closes on itself, so it may begin anywhere along it.
    public let isLoop: Bool
    /// It may be drawn either way round (built-in shapes); a taught one keeps
    /// the direction it was taught in, unless it is a loop.
    public let anyDirection: Bool
    /// A stroke may be turned up to `ShapeMatcher.maxSlant` to meet it
    /// (built-in shapes, drawn by strangers at their own slant); a taught one
    /// was drawn at its teacher's slant, and turning strokes further than
    /// `ShapeMatcher.maxTaughtSlant` to meet it only blurs it with the
    /// teacher's other shapes (a circle with their rounded rectangle).
    public let turnsToMeet: Bool
    /// Degrees either way a stroke may be turned to meet it.
    var maxTurn: Double { turnsToMeet ? ShapeMatcher.maxSlant : ShapeMatcher.maxTaughtSlant }
    /// It turns sharply somewhere, so a drawing of it must too (`ShapeCorners`):
    /// built-in shapes, defined by their geometry. A taught one is a drawing,
    /// whose hooks where the pen landed or lifted are no corners the next
    /// drawing will have.
    public let hasCorner: Bool
    /// It curves the same way all round (`ShapeBend`), so a drawing of it must
    /// too: built-in shapes alone, for the reason `hasCorner` is.
    public let bendsAllRound: Bool
    let variants: [ShapeStroke]

    /// A stroke whose ends are closer than this share of its size is a loop.
    public static let loopGap = 0.25
    static let loopStarts = 16
    /// Going round a loop once, or overshooting the start a little as people do.
    static let loopLaps = [1.0, 1.15, 2.0]

    /// Nil when the path has no length.
    public init?(name: String, path: [Vector], anyDirection: Bool, loop: Bool? = nil, turnsToMeet: Bool = false, cornersCount: Bool = false) {
        guard let stroke = ShapeStroke(path: path) else { return nil }
        self.name = name
        self.stroke = stroke
        self.anyDirection = anyDirection
        self.turnsToMeet = turnsToMeet
        hasCorner = cornersCount && ShapeCorners.sharpestTurn(ofTemplate: path) >= ShapeCorners.templateCorner
        bendsAllRound = cornersCount && ShapeBend.leastTurn(ofTemplate: path) >= ShapeBend.templateBend
        isLoop = loop ?? (stroke.endGap < ShapeTemplate.loopGap)
        if isLoop {
            let ring = LoopPath(stroke.points + [stroke.points[0]])
            var all: [ShapeStroke] = []
            let n = ShapeStroke.pointCount
            for laps in ShapeTemplate.loopLaps {
                for start in 0..<ShapeTemplate.loopStarts {
                    for way in [1.0, -1.0] {
                        let points = (0..<n).map { i in
                            ring.point(at: Double(start) / Double(ShapeTemplate.loopStarts) + way * laps * Double(i) / Double(n - 1))
                        }
                        all.append(ShapeStroke(resampled: points))
                    }
                }
            }
            // The drawing as given is a way to draw it too: a taught loop
            // left open or overshot, begun where its teacher begins, meets a
            // drawing left open the same way better than any closed lap.
            if stroke.endGap > 1e-6 { all.append(stroke) }
            variants = all
        } else {
            variants = anyDirection ? [stroke, stroke.reversed] : [stroke]
        }
    }
}

/// A closed polyline walked by the share of its length, wrapping round.
struct LoopPath {
    let points: [Vector]
    let distances: [Double]
    let length: Double

    init(_ closed: [Vector]) {
        points = closed
        var d = [0.0]
        for i in 1..<closed.count { d.append(d[i - 1] + closed[i].distance(to: closed[i - 1])) }
        distances = d
        length = d[d.count - 1]
    }

    func point(at share: Double) -> Vector {
        guard length > 0 else { return points[0] }
        var s = share.truncatingRemainder(dividingBy: 1)
        if s < 0 { s += 1 }
        let target = s * length
        var lo = 0, hi = distances.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if distances[mid] <= target { lo = mid } else { hi = mid }
        }
        let span = distances[hi] - distances[lo]
        let f = span > 0 ? (target - distances[lo]) / span : 0
        return points[lo] + (points[hi] - points[lo]) * f
    }
}
