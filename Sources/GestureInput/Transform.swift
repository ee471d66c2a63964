import GestureCore

/// Maps a device's axes onto the screen before recognition: libinput's 6-value
/// calibration matrix on normalized coordinates, then flips, then a clockwise
/// rotation of 0, 90, 180 or 270 degrees.
///
/// `--rotate 90` means what the panel reports as "right" is "down" on screen.
public struct Transform: Equatable, Sendable {
    public var rotation = 0
    public var flipX = false
    public var flipY = false
    /// a b c d e f: x' = a·x + b·y + c, y' = d·x + e·y + f, with x and y in 0...1.
    public var calibration: [Double]?

    public init(rotation: Int = 0, flipX: Bool = false, flipY: Bool = false, calibration: [Double]? = nil) {
        self.rotation = rotation
        self.flipX = flipX
        self.flipY = flipY
        self.calibration = calibration
    }

    public static let identity = Transform()

    public var isIdentity: Bool { rotation % 360 == 0 && !flipX && !flipY && calibration == nil }

    /// Whether the screen's width is the device's height.
    public var swapsAxes: Bool { rotation == 90 || rotation == 270 }

    /// Normalized device coordinates (0...1) to normalized screen coordinates.
    @inline(__always)
    public func apply(_ u: Double, _ v: Double) -> (Double, Double) {
        var x = u
        var y = v
        if let m = calibration, m.count == 6 {
            x = m[0] * u + m[1] * v + m[2]
            y = m[3] * u + m[4] * v + m[5]
        }
        if flipX { x = 1 - x }
        if flipY { y = 1 - y }
        switch rotation {
        case 90: return (1 - y, x)
        case 180: return (1 - x, 1 - y)
        case 270: return (y, 1 - x)
        default: return (x, y)
        }
    }

    /// A description for messages: "rotated 90°, flipped vertically".
    public var description: String {
        var parts: [String] = []
        if calibration != nil { parts.append("calibrated") }
        if flipX { parts.append("flipped horizontally") }
        if flipY { parts.append("flipped vertically") }
        if rotation % 360 != 0 { parts.append("rotated \(rotation)°") }
        return parts.isEmpty ? "as reported" : parts.joined(separator: ", ")
    }
}
