/// How unlike two strokes are: dynamic time warping over their points, where
/// matching two points costs their distance plus how far their directions of
/// travel differ. Warping lets a stroke drawn with one part longer or quicker
/// than the template still line up with it; a band keeps it from matching the
/// start of one with the end of the other.
///
/// The ends are open: either stroke may leave a few points at its start or
/// its end unmatched, at a fixed cost each. Where a pen lands or lifts, people
/// add what is no part of the shape, a hook, a lead-in curling into a circle,
/// a tail past its start, and a template taught from a drawing carries its
/// own (docs/shapes.md, "Matching").
struct WarpDistance {
    /// Weight of direction against position: 1 - cos of the angle between
    /// tangents, so opposite directions cost 2. 0.8 rather than 0.6: at the
    /// same share of scribbles taken, the $1 logs' people lose no more shapes
    /// and the scale can be wider (docs/shapes.md, "How well it works").
    static let directionWeight = 0.8
    /// The band, as a share of the points: how far out of step two points may be.
    static let band = 0.15
    /// At most this share of the points at each end of either stroke may go
    /// unmatched: 3 of 32, more than a hook (2 to 8% of a drawing's path) and
    /// less than the shortest leg a shape has (a bracket's arm, 10% or more).
    static let openEnds = 0.1
    /// What a point left unmatched costs: what matching costs a point 0.35 of
    /// the drawing's size off its counterpart, or 0.15 off and heading 40°
    /// away, so that only what lies far from the template is left out
    /// (0.2 and 0.5 tried: docs/shapes.md, "Matching").
    static let unmatchedCost = 0.35

    private var costs: [Double]
    private let n: Int
    private let radius: Int
    private let open: Int

    init(pointCount: Int = ShapeStroke.pointCount) {
        n = pointCount
        radius = max(1, Int((WarpDistance.band * Double(pointCount)).rounded(.down)))  // ok: small positive
        open = min(pointCount - 1, Int((WarpDistance.openEnds * Double(pointCount)).rounded()))  // ok: small positive
        costs = [Double](repeating: .infinity, count: (pointCount + 1) * (pointCount + 1))
    }

    /// The mean cost along the cheapest warping path, with the points left
    /// unmatched at the ends; stops early and returns infinity once it cannot
    /// beat `bound`.
    mutating func distance(_ a: ShapeStroke, _ b: ShapeStroke, bound: Double = .infinity) -> Double {
        let w = n + 1
        let limit = bound * Double(2 * n)
        let open = self.open, skip = WarpDistance.unmatchedCost
        costs.withUnsafeMutableBufferPointer { d in
            for i in 0..<d.count { d[i] = .infinity }
            d[0] = 0
            // Beginning past the first points of either stroke.
            for k in stride(from: 1, through: open, by: 1) {
                d[k * w] = Double(k) * skip
                d[k] = Double(k) * skip
            }
            a.points.withUnsafeBufferPointer { pa in
            b.points.withUnsafeBufferPointer { pb in
            a.tangents.withUnsafeBufferPointer { ta in
            b.tangents.withUnsafeBufferPointer { tb in
                for i in 1...n {
                    var rowBest = Double.infinity
                    for j in max(1, i - radius)...min(n, i + radius) {
                        let p = pa[i - 1], q = pb[j - 1]
                        let dx = p.x - q.x, dy = p.y - q.y
                        let turn = 1 - (ta[i - 1].x * tb[j - 1].x + ta[i - 1].y * tb[j - 1].y)
                        let cost = (dx * dx + dy * dy).squareRoot() + WarpDistance.directionWeight * turn
                        let best = min(d[(i - 1) * w + j], d[i * w + j - 1], d[(i - 1) * w + j - 1])
                        d[i * w + j] = cost + best
                        rowBest = min(rowBest, d[i * w + j])
                    }
                    // A path may still end on an earlier row, before the last points.
                    if rowBest > limit, i <= n - open { d[n * w + n] = .infinity; return }
                }
                // Ending before the last points of either stroke.
                var end = d[n * w + n]
                for k in stride(from: 1, through: open, by: 1) {
                    end = min(end, d[(n - k) * w + n] + Double(k) * skip, d[n * w + n - k] + Double(k) * skip)
                }
                d[n * w + n] = end
            }}}}
        }
        return costs[n * w + n] / Double(2 * n)
    }
}
