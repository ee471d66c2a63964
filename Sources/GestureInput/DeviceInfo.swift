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

/// Converts device units to millimetres from the screen's top-left corner,
/// through the transform when one is asked for.
public struct UnitConverter: Equatable, Sendable {
    public var xScale: Double
    public var yScale: Double
    public var xOrigin: Double
    public var yOrigin: Double
    public var surface: Surface? { didSet { noteMapping() } }
    /// How the resolution was chosen, for `-v`.
    public var origin: ResolutionOrigin
    public var transform: Transform { didSet { noteMapping() } }
    /// Device width and height in units, when the axis ranges are known.
    private var span: (x: Double, y: Double)? { didSet { noteMapping() } }
    /// Whether `millimetres` goes through the transform: asked for every
    /// contact of every frame, so kept, not worked out (`isIdentity` divides).
    private var mapsAxes = false
    /// Why the transform cannot apply (no axis ranges), for a warning; nil when fine.
    public private(set) var transformProblem: String?

    public enum ResolutionOrigin: Equatable, Sendable {
        case commandLine, device, cssPixels
        /// A size or resolution that stands in for the device's (see `SizeHint`).
        case hint(SizeHint)

        /// Worked out rather than given: said on stderr even without `-v`.
        public var isGuess: Bool {
            if case .hint(let h) = self { return h.origin.isGuess }
            return false
        }
    }

    public static func == (a: UnitConverter, b: UnitConverter) -> Bool {
        a.xScale == b.xScale && a.yScale == b.yScale && a.xOrigin == b.xOrigin && a.yOrigin == b.yOrigin
            && a.surface == b.surface && a.origin == b.origin && a.transform == b.transform
    }

    /// `override` (units per mm, per axis) wins over the device's own resolution;
    /// without either, the first of `hints` that applies; with none, units are
    /// taken as CSS pixels.
    public init(device: DeviceInfo?, override: (x: Double, y: Double)? = nil, hints: [SizeHint] = [], transform: Transform = .identity) {
        let deviceX = device?.x.resolution.flatMap { InputLimits.unitsPerMillimetre($0) }
        let deviceY = device?.y.resolution.flatMap { InputLimits.unitsPerMillimetre($0) }
        var units: (x: Double, y: Double)?
        if let xMax = device?.x.maximum, let yMax = device?.y.maximum, let xMin = device?.x.minimum, let yMin = device?.y.minimum,
           xMax > xMin, yMax > yMin {
            units = (xMax - xMin, yMax - yMin)
        }
        let hinted = hints.lazy.compactMap { h in h.resolution(span: units).map { (h, $0) } }.first
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
        } else if let (hint, r) = hinted {
            rx = r.x
            ry = r.y
            origin = .hint(hint)
        } else {
            rx = cssPixelsPerMillimetre
            ry = cssPixelsPerMillimetre
            origin = .cssPixels
        }
        xScale = 1 / rx
        yScale = 1 / ry
        xOrigin = device?.x.minimum ?? 0
        yOrigin = device?.y.minimum ?? 0
        self.transform = transform
        if let xMax = device?.x.maximum, let yMax = device?.y.maximum, xMax > xOrigin, yMax > yOrigin {
            let w = (xMax - xOrigin) * xScale
            let h = (yMax - yOrigin) * yScale
            span = (xMax - xOrigin, yMax - yOrigin)
            surface = transform.swapsAxes ? Surface(width: h, height: w) : Surface(width: w, height: h)
        } else {
            surface = nil
            if !transform.isIdentity {
                transformProblem = "cannot apply --rotate, --flip or --calibration without the device's axis ranges; give a device header with min and max"
                self.transform = .identity
            }
        }
        noteMapping()
    }

    private mutating func noteMapping() {
        mapsAxes = !transform.isIdentity && span != nil && surface != nil
    }

    @inline(__always)
    public func millimetres(x: Double, y: Double) -> Vector {
        guard mapsAxes, let span, let surface else {
            return Vector((x - xOrigin) * xScale, (y - yOrigin) * yScale)
        }
        let (u, v) = transform.apply((x - xOrigin) / span.x, (y - yOrigin) / span.y)
        return Vector(u * surface.width, v * surface.height)
    }

    /// One line for `-v`: which resolution is in use and why.
    public func explanation(source: String) -> String {
        let rx = 1 / xScale
        let ry = 1 / yScale
        let units = rx == ry ? "\(trimmed(rx)) units/mm" : "\(trimmed(rx)) x \(trimmed(ry)) units/mm"
        let mapped = transform.isIdentity ? "" : "; axes \(transform.description)"
        switch origin {
        case .commandLine: return "\(source): resolution \(units) from --resolution" + mapped
        case .device: return "\(source): resolution \(units) from the device description" + mapped
        case .hint(let hint) where hint.origin == .sizeOption:
            return "\(source): resolution \(units) from \(hint.description)" + mapped
        case .hint(let hint):
            return "\(source): the device gives no resolution; using \(hint.description), \(units); give --size WxH (mm) to set it" + mapped
        case .cssPixels:
            return "\(source): no resolution given; taking coordinates as CSS pixels (96 per inch, 3.78 per mm); use --resolution UNITS_PER_MM to set it" + mapped
        }
    }

    private func trimmed(_ v: Double) -> String { format(v) }
}
