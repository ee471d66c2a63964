/// How unlike two strokes are: dynamic time warping over their points, where
/// matching two points costs their distance plus how far their directions of
/// travel differ. Warping lets a stroke drawn with one part longer or quicker
/// than the template still line up with it; a band keeps it from matching the
/// start of one with the end of the other.
struct WarpDistance {
    /// Weight of direction against position: 1 - cos of the angle between
    /// tangents, so opposite directions cost 2.
    static let directionWeight = 0.6
    /// The band, as a share of the points: how far out of step two points may be.
    static let band = 0.15

    private var costs: [Double]
    private let n: Int
    private let radius: Int

    init(pointCount: Int = ShapeStroke.pointCount) {
        n = pointCount
        radius = max(1, Int((WarpDistance.band * Double(pointCount)).rounded(.down)))  // ok: small positive
        costs = [Double](repeating: .infinity, count: (pointCount + 1) * (pointCount + 1))
    }

    /// The mean cost along the cheapest warping path; stops early and returns
    /// infinity once it cannot beat `bound`.
    mutating func distance(_ a: ShapeStroke, _ b: ShapeStroke, bound: Double = .infinity) -> Double {
        let w = n + 1
        let limit = bound * Double(2 * n)
        costs.withUnsafeMutableBufferPointer { d in
            for i in 0..<d.count { d[i] = .infinity }
            d[0] = 0
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
                    if rowBest > limit { d[n * w + n] = .infinity; return }
                }
            }}}}
        }
        return costs[n * w + n] / Double(2 * n)
    }
}
