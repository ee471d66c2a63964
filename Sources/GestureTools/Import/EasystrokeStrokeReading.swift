import Glibc
import GestureCore

/// A recorded Easystroke stroke read as directions, the way gesturemap reads a
/// drawn one (`MouseStrokeReading`). Easystroke keeps its points normalized,
/// so they are first scaled to a box of `boxSize` mm (their aspect kept). A
/// reading counts only when it is sure: the stroke turned a third of a
/// sector's half-width either way (15° among 4 directions, 7.5° among 8)
/// still reads the same, so a hand drawing it a little askew gets the same rule.
enum EasystrokeStrokeReading {
    static let boxSize = 60.0
    static let tolerance4 = 15.0
    static let tolerance8 = 7.5

    /// The points in millimetres from the box's top-left corner; nil when
    /// they go nowhere (fewer than two, all in one place, or spread wider
    /// than a double can measure).
    static func millimetres(_ points: [(x: Double, y: Double)]) -> [Vector]? {
        guard points.count >= 2, let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let side = max(maxX - minX, maxY - minY)
        guard side.isFinite, side > 0 else { return nil }
        let scale = boxSize / side
        return points.map { Vector(($0.x - minX) * scale, ($0.y - minY) * scale) }
    }

    /// The directions, or nil when the reading is no stroke or not sure.
    static func directions(_ path: [Vector], eightWay: Bool) -> [Direction]? {
        let reader = MouseStrokeReading(eightWay: eightWay)
        guard case .success(let base) = reader.read(timed(path)) else { return nil }
        let tolerance = eightWay ? tolerance8 : tolerance4
        for degrees in [-tolerance, tolerance] {
            guard case .success(let turned) = reader.read(timed(rotated(path, degrees: degrees))),
                  turned.directions == base.directions else { return nil }
        }
        return base.directions
    }

    private static func timed(_ path: [Vector]) -> [MouseStrokeReading.Point] {
        path.enumerated().map { MouseStrokeReading.Point(time: Double($0.offset) * 0.01, x: $0.element.x, y: $0.element.y) }
    }

    private static func rotated(_ path: [Vector], degrees: Double) -> [Vector] {
        let a = degrees * .pi / 180
        let c = cos(a), s = sin(a)
        let mid = Vector(boxSize / 2, boxSize / 2)
        return path.map {
            let d = $0 - mid
            return Vector(mid.x + d.x * c - d.y * s, mid.y + d.x * s + d.y * c)
        }
    }
}
