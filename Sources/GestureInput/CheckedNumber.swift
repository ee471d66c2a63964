/// The one way a number from outside becomes a fixed-width integer.
///
/// Swift traps when `Int(someDouble)` is out of range, NaN or infinite, and when
/// `Int32(someInt)` overflows; a recording from a stranger must never do that to
/// us. Every such conversion on input goes through `Checked.integer`, which says
/// nil instead, and the caller reports the line.
public enum Checked {
    /// `value` without its fraction (rounded toward zero) when that fits `T`;
    /// nil for NaN, infinities and anything out of range.
    @inline(__always)
    public static func integer<T: FixedWidthInteger>(_ value: Double, as type: T.Type = T.self) -> T? {
        T(exactly: value.rounded(.towardZero))
    }

    /// `value` when it fits `T`; nil when it does not.
    @inline(__always)
    public static func integer<T: FixedWidthInteger, S: BinaryInteger>(_ value: S, as type: T.Type = T.self) -> T? {
        T(exactly: value)
    }

    /// `value` when it is a whole number that fits `T`; nil for fractions too.
    @inline(__always)
    public static func exactInteger<T: FixedWidthInteger>(_ value: Double, as type: T.Type = T.self) -> T? {
        T(exactly: value)
    }

    /// `value` clamped into `T`'s range after rounding to nearest, for output
    /// that must say something (a record file's axis line); NaN gives nil.
    @inline(__always)
    public static func clampedInteger<T: FixedWidthInteger>(_ value: Double, as type: T.Type = T.self) -> T? {
        guard !value.isNaN else { return nil }
        let r = value.rounded()
        if r <= Double(T.min) { return T.min }
        // Double(T.max) rounds up to 2^bits, which is already out of range.
        if r >= Double(T.max) { return T.max }
        return T(exactly: r)
    }
}

/// Limits on numbers that describe touches, shared by every decoder: beyond
/// them a value is not a measurement but a corrupt or hostile record.
public enum InputLimits {
    /// Device units: evdev axes are 32-bit, and no recording format needs more.
    public static let maxWholeUnits = 2_147_483_648
    public static let maxUnits = Double(maxWholeUnits)
    /// Seconds either side of zero: 317 years, far past any epoch or uptime
    /// clock, and still exact to the microsecond in a Double.
    public static let maxWholeSeconds = 10_000_000_000
    public static let maxTime = Double(maxWholeSeconds)
    /// A jump forward (or back) of more than a day is a clock change, not a pause.
    public static let maxTimeJump = 86_400.0
    /// Units per millimetre: from a unit per micrometre to one per metre.
    public static let resolution: ClosedRange<Double> = 0.001...1_000_000
    /// Millimetres from the surface's origin: a kilometre is no touch surface.
    public static let maxMillimetres = 1_000_000.0
    /// Simultaneous contacts per device: the kernel's drivers track at most a
    /// few dozen (ABS_MT_SLOT ranges reach 60 on the largest panels).
    public static let maxContacts = 64

    /// A device coordinate, or nil when it is out of range (NaN included).
    @inline(__always)
    public static func units(_ v: Double) -> Double? {
        abs(v) <= maxUnits ? v : nil
    }

    /// An input time, or nil when it is out of range (NaN included).
    @inline(__always)
    public static func time(_ t: Double) -> Double? {
        abs(t) <= maxTime ? t : nil
    }

    /// A resolution in units per millimetre, or nil when it is out of range.
    @inline(__always)
    public static func unitsPerMillimetre(_ r: Double) -> Double? {
        resolution.contains(r) ? r : nil
    }
}
