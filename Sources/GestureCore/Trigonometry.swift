import Glibc

// The core avoids Foundation; these wrap libm so the rest of the module reads in degrees.

@inline(__always)
public func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * 180 / Double.pi
}

@inline(__always)
public func cosDegrees(_ angle: Double) -> Double { cos(angle * Double.pi / 180) }

@inline(__always)
public func sinDegrees(_ angle: Double) -> Double { sin(angle * Double.pi / 180) }

@inline(__always)
public func tanDegrees(_ angle: Double) -> Double { tan(angle * Double.pi / 180) }

/// The angle whose cosine is `x`, in degrees; `x` must lie in -1...1.
@inline(__always)
public func acosDegrees(_ x: Double) -> Double { acos(x) * 180 / Double.pi }
