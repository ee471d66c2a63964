/// A 2-D vector in millimetres, screen convention: x grows right, y grows down.
public struct Vector: Equatable, Sendable, BitwiseCopyable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Vector(0, 0)

    public var length: Double { (x * x + y * y).squareRoot() }

    /// Angle in degrees from the +x axis, clockwise on screen because y points down.
    public var degrees: Double { atan2Degrees(y, x) }

    public static func + (a: Vector, b: Vector) -> Vector { Vector(a.x + b.x, a.y + b.y) }
    public static func - (a: Vector, b: Vector) -> Vector { Vector(a.x - b.x, a.y - b.y) }
    public static func * (a: Vector, k: Double) -> Vector { Vector(a.x * k, a.y * k) }
    public static func / (a: Vector, k: Double) -> Vector { Vector(a.x / k, a.y / k) }
    public static func += (a: inout Vector, b: Vector) { a = a + b }

    public func dot(_ other: Vector) -> Double { x * other.x + y * other.y }
    public func distance(to other: Vector) -> Double { (self - other).length }

    /// For comparisons against a squared limit: no square root.
    @inline(__always)
    public func distanceSquared(to other: Vector) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        return dx * dx + dy * dy
    }
}

/// Normalises an angle in degrees to (-180, 180].
@inline(__always)
public func normalizedDegrees(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 360)
    if a > 180 { a -= 360 }
    if a <= -180 { a += 360 }
    return a
}
