import GestureCore

/// One axis as the source describes it: range in device units and resolution in
/// units per millimetre (evdev's `input_absinfo.resolution`; nil or 0 = unknown).
public struct AxisInfo: Equatable, Sendable {
    public var minimum: Double
    public var maximum: Double?
    public var resolution: Double?

    public init(minimum: Double = 0, maximum: Double? = nil, resolution: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }
}

/// What a source says about the device that produced it.
public struct DeviceInfo: Equatable, Sendable {
    public var name: String?
    public var x: AxisInfo
    public var y: AxisInfo

    public init(name: String? = nil, x: AxisInfo = AxisInfo(), y: AxisInfo = AxisInfo()) {
        self.name = name
        self.x = x
        self.y = y
    }
}

/// CSS pixels: 96 per inch. The contract's fallback when a source gives no resolution.
public let cssPixelsPerMillimetre = 96.0 / 25.4

/// Converts device units to millimetres from the surface's top-left corner.
public struct UnitConverter: Equatable, Sendable {
    public var xScale: Double
    public var yScale: Double
    public var xOrigin: Double
    public var yOrigin: Double
    public var surface: Surface?
    /// How the resolution was chosen, for `-v`.
    public var origin: ResolutionOrigin

    public enum ResolutionOrigin: Equatable, Sendable {
        case commandLine, device, cssPixels
    }

    /// `override` (units per mm, per axis) wins over the device's own resolution;
    /// with neither, units are taken as CSS pixels.
    public init(device: DeviceInfo?, override: (x: Double, y: Double)? = nil) {
        let deviceX = device?.x.resolution.flatMap { $0 > 0 ? $0 : nil }
        let deviceY = device?.y.resolution.flatMap { $0 > 0 ? $0 : nil }
        let rx: Double
        let ry: Double
        if let override {
            rx = override.x
            ry = override.y
            origin = .commandLine
        } else if let deviceX, let deviceY {
            rx = deviceX
            ry = deviceY
            origin = .device
        } else {
            rx = cssPixelsPerMillimetre
            ry = cssPixelsPerMillimetre
            origin = .cssPixels
        }
        xScale = 1 / rx
        yScale = 1 / ry
        xOrigin = device?.x.minimum ?? 0
        yOrigin = device?.y.minimum ?? 0
        if let xMax = device?.x.maximum, let yMax = device?.y.maximum, xMax > xOrigin, yMax > yOrigin {
            surface = Surface(width: (xMax - xOrigin) * xScale, height: (yMax - yOrigin) * yScale)
        } else {
            surface = nil
        }
    }

    @inline(__always)
    public func millimetres(x: Double, y: Double) -> Vector {
        Vector((x - xOrigin) * xScale, (y - yOrigin) * yScale)
    }

    /// One line for `-v`: which resolution is in use and why.
    public func explanation(source: String) -> String {
        let rx = 1 / xScale
        let ry = 1 / yScale
        let units = rx == ry ? "\(trimmed(rx)) units/mm" : "\(trimmed(rx)) x \(trimmed(ry)) units/mm"
        switch origin {
        case .commandLine: return "\(source): resolution \(units) from --resolution"
        case .device: return "\(source): resolution \(units) from the device description"
        case .cssPixels:
            return "\(source): no resolution given; taking coordinates as CSS pixels (96 per inch, 3.78 per mm); use --resolution UNITS_PER_MM to set it"
        }
    }

    private func trimmed(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
