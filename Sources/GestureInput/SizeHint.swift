import GestureCore

/// What stands in for the kernel's resolution when a device reports none: a
/// physical size of the surface, or units per millimetre, and where it came from.
/// Several may apply; the first in the order below wins (see docs/defaults.md):
///
/// 1. `--size WxH`, the user's own measurement;
/// 2. the udev database's `LIBINPUT_ATTR_RESOLUTION_HINT` / `LIBINPUT_ATTR_SIZE_HINT` (live devices);
/// 3. for a touchscreen, the size of the display it drives, from its EDID (live devices);
/// 4. for a graphics tablet, its size in libwacom's database (by its ids, recordings too);
/// 5. a typical size for the kind of device.
public struct SizeHint: Equatable, Sendable {
    public enum Measure: Equatable, Sendable {
        /// The whole axis ranges, x then y as the device reports them.
        case millimetres(width: Double, height: Double)
        case unitsPerMillimetre(x: Double, y: Double)
    }

    public enum Origin: Equatable, Sendable {
        case sizeOption
        /// A udev property, with its text as the database holds it.
        case udev(property: String, value: String)
        /// A display connector under /sys/class/drm, such as "card0-eDP-1".
        case display(connector: String)
        /// libwacom's entry for the model, by its name there.
        case tabletDatabase(model: String)
        case typicalTouchpad
        case typicalTouchscreen

        /// Whether gesturemap guessed it, so it says so without `-v`.
        public var isGuess: Bool { self != .sizeOption }
    }

    public var measure: Measure
    public var origin: Origin

    public init(_ measure: Measure, from origin: Origin) {
        self.measure = measure
        self.origin = origin
    }

    /// libinput's assumption for a touchpad that gives no resolution.
    public static let typicalTouchpad = Surface(width: 69, height: 50)
    /// A 13.3-inch screen (338 mm across), the commonest size of touch laptops
    /// and tablet PCs; see docs/defaults.md.
    public static let typicalTouchscreenDiagonal = 13.3 * 25.4

    /// The typical size for a device of this kind with these axis ranges
    /// (units): a touchpad as libinput assumes one; a touchscreen with the
    /// typical diagonal and, since its units are most likely square, the
    /// aspect of its axes.
    public static func typical(touchscreen: Bool, span: (x: Double, y: Double)) -> SizeHint {
        guard touchscreen else {
            return SizeHint(.millimetres(width: typicalTouchpad.width, height: typicalTouchpad.height), from: .typicalTouchpad)
        }
        let diagonal = (span.x * span.x + span.y * span.y).squareRoot()
        let scale = diagonal > 0 ? typicalTouchscreenDiagonal / diagonal : 0
        return SizeHint(.millimetres(width: span.x * scale, height: span.y * scale), from: .typicalTouchscreen)
    }

    /// Units per millimetre for axes spanning `span` units, or nil when this
    /// hint gives none that is plausible (a size needs the axis ranges).
    func resolution(span: (x: Double, y: Double)?) -> (x: Double, y: Double)? {
        let r: (x: Double, y: Double)
        switch measure {
        case let .unitsPerMillimetre(x, y):
            r = (x, y)
        case let .millimetres(width, height):
            guard let span, width > 0, height > 0 else { return nil }
            r = (span.x / width, span.y / height)
        }
        guard InputLimits.unitsPerMillimetre(r.x) != nil, InputLimits.unitsPerMillimetre(r.y) != nil else { return nil }
        return r
    }

    /// For messages: "a typical touchpad of 69 x 50 mm, as libinput assumes".
    var description: String {
        let what: String
        switch measure {
        case let .millimetres(w, h): what = "\(format(w)) x \(format(h)) mm"
        case let .unitsPerMillimetre(x, y): what = "\(format(x)) x \(format(y)) units/mm"
        }
        switch origin {
        case .sizeOption: return "--size (\(what))"
        case let .udev(property, value): return "the udev database's \(property)=\(value) (\(what))"
        case let .display(connector): return "the size of the display on \(connector), from its EDID (\(what))"
        case let .tabletDatabase(model): return "the size of a \(model) in libwacom's database (\(what))"
        case .typicalTouchpad: return "a typical touchpad of \(what), as libinput assumes"
        case .typicalTouchscreen: return "a typical 13.3-inch touchscreen of \(what)"
        }
    }
}

/// A number for people: whole when it is, else to a tenth or a hundredth.
func format(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    if r == r.rounded(), let whole = Checked.integer(r, as: Int.self) { return String(whole) }
    return String(r)
}
