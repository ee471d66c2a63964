/// Every recognizer threshold, by the name `config{}` uses, with its unit, the
/// range a rule may set, and its default. `docs/defaults.md` gives the source of each.
public enum Threshold: String, CaseIterable, Sendable {
    case fingerSettle = "finger_settle"
    case swipeMinDistance = "swipe_min_distance"
    case swipeMaxAngle = "swipe_max_angle"
    case swipeMaxDuration = "swipe_max_duration"
    case swipeMinSpeed = "swipe_min_speed"
    case swipeCommitSpeed = "swipe_commit_speed"
    case tapMaxDuration = "tap_max_duration"
    case tapMaxMovement = "tap_max_movement"
    case tapInterval = "tap_interval"
    case tapMaxDistance = "tap_max_distance"
    case longPressDuration = "long_press_duration"
    case longPressMaxMovement = "long_press_max_movement"
    case panMinDistance = "pan_min_distance"
    case pinchMinScale = "pinch_min_scale"
    case pinchMinSpread = "pinch_min_spread"
    case rotateMinAngle = "rotate_min_angle"
    case edgeZone = "edge_zone"
    case shapeMinScore = "shape_min_score"
    case shapeMinSize = "shape_min_size"
    case shapeGap = "shape_gap"
    /// Not the recognizers': how long touchpad gestures stay quiet after typing
    /// (the engine's keyboards; 0 turns it off). A config key like the others.
    case typingQuiet = "typing_quiet"
    /// Added last: the keys before it keep their places, in storage
    /// and in the list an unknown key's message gives.
    case swipeSettle = "swipe_settle"
    /// Not the recognizers': with sharing (`share`), a touch sequence that
    /// reaches this many fingers is gesturemap's and the desktop sees none of
    /// it (0: no such claim).
    case claimFingers = "claim_fingers"
    /// `run --share` as a config key: 1 (or true) shares live devices with the desktop.
    case share = "share"
    /// Not the recognizers': the virtual pointer's counts for a millimetre
    /// `pointer.move` asks for.
    case pointerGain = "pointer_gain"
    /// Not the recognizers': with sharing, mice are shared too (1 or true),
    /// as `run --share-mouse` asks (docs/mouse.md).
    case shareMice = "share_mice"
    /// A shared mouse's resolution, dots an inch; 0 reads udev's `MOUSE_DPI`
    /// (else 1000 dpi), as libinput does.
    case mouseDPI = "mouse_dpi"
    /// The mouse button strokes are drawn with when a rule names none: one of
    /// `MouseButton`, kept as its place in that list (`isChoice`).
    case strokeButton = "stroke_button"
    /// A shared mouse's held press becomes a stroke past this travel from
    /// where it was pressed (mm); under it, a click.
    case strokeThreshold = "stroke_threshold"
    /// How long a shared mouse's held press waits for motion, and a stroke
    /// may rest undecided, before the desktop gets it (seconds).
    case strokeTimeout = "stroke_timeout"

    public var defaultValue: Double {
        switch self {
        case .fingerSettle: return 0.1
        case .swipeMinDistance: return 10
        case .swipeMaxAngle: return 44
        case .swipeMaxDuration: return 2.0
        case .swipeMinSpeed: return 50
        case .swipeCommitSpeed: return 120
        case .swipeSettle: return 0.06
        case .tapMaxDuration: return 0.3
        case .tapMaxMovement: return 5
        case .tapInterval: return 0.3
        case .tapMaxDistance: return 10
        case .longPressDuration: return 0.5
        case .longPressMaxMovement: return 2.5
        case .panMinDistance: return 5
        case .pinchMinScale: return 0.15
        case .pinchMinSpread: return 5
        case .rotateMinAngle: return 15
        case .edgeZone: return 5
        case .shapeMinScore: return 0.8
        case .shapeMinSize: return 8
        case .shapeGap: return 0.5
        case .typingQuiet: return 0.5
        case .claimFingers: return 0
        case .share: return 0
        case .pointerGain: return 15
        case .shareMice: return 0
        case .mouseDPI: return 0
        case .strokeButton: return MouseButton.right.configValue
        // Easystroke's and wstroke's 16 pixels, a pixel a count at libinput's 1000 dpi.
        case .strokeThreshold: return 16 * 25.4 / 1000
        case .strokeTimeout: return 0.25
        }
    }

    /// Keys that are on or off: `true` and `false` set them too.
    public var isSwitch: Bool { self == .share || self == .shareMice }

    /// Keys set by a name, not a number: the names, in the order their values count.
    public var choices: [String]? { self == .strokeButton ? MouseButton.names : nil }

    /// Keys that count things: a fraction is no value of theirs.
    public var isWhole: Bool { self == .mouseDPI }

    public var unit: String {
        switch self {
        case .fingerSettle, .swipeSettle, .swipeMaxDuration, .tapMaxDuration, .tapInterval, .longPressDuration, .shapeGap, .typingQuiet,
             .strokeTimeout: return "s"
        case .swipeMinDistance, .tapMaxMovement, .tapMaxDistance, .longPressMaxMovement,
             .panMinDistance, .pinchMinSpread, .edgeZone, .shapeMinSize, .strokeThreshold: return "mm"
        case .swipeMaxAngle, .rotateMinAngle: return "degrees"
        case .swipeMinSpeed, .swipeCommitSpeed: return "mm/s"
        case .pinchMinScale, .shapeMinScore: return "ratio"
        case .claimFingers: return "fingers"
        case .share: return "(0 or 1, false or true)"
        case .pointerGain: return "counts/mm"
        case .shareMice: return "(0 or 1, false or true)"
        case .mouseDPI: return "dpi (0: udev's MOUSE_DPI, else 1000)"
        case .strokeButton: return "(a button: \(MouseButton.names.joined(separator: ", ")))"
        }
    }

    /// The values a rule may set; outside them the recognizer could never fire or
    /// would fire on noise.
    public var range: ClosedRange<Double> {
        switch self {
        case .fingerSettle: return 0...1
        case .swipeMinDistance: return 1...200
        case .swipeMaxAngle: return 5...44
        case .swipeMaxDuration: return 0.05...5
        case .swipeMinSpeed: return 0...2000
        case .swipeCommitSpeed: return 0...5000
        case .swipeSettle: return 0...1
        case .tapMaxDuration: return 0.02...2
        case .tapMaxMovement: return 0.1...30
        case .tapInterval: return 0.05...2
        case .tapMaxDistance: return 1...100
        case .longPressDuration: return 0.1...10
        case .longPressMaxMovement: return 0.1...50
        case .panMinDistance: return 0...50
        case .pinchMinScale: return 0.01...0.9
        case .pinchMinSpread: return 0.5...100
        case .rotateMinAngle: return 1...180
        case .edgeZone: return 0.5...50
        case .shapeMinScore: return 0...1
        case .shapeMinSize: return 2...500
        case .shapeGap: return 0...2
        case .typingQuiet: return 0...5
        case .claimFingers: return 0...10
        case .share: return 0...1
        case .pointerGain: return 0.1...200
        case .shareMice: return 0...1
        case .mouseDPI: return 0...100_000
        case .strokeButton: return 0...Double(MouseButton.allCases.count - 1)
        // At most the shortest stroke, 5 mm (MouseStrokeReading): past it a
        // stroke could end before its press was one.
        case .strokeThreshold: return 0.1...5
        // Easystroke's shortest timeout profile waits 30 ms; past 5 s a held
        // press would look stuck to the desktop.
        case .strokeTimeout: return 0.03...5
        }
    }

    var index: Int {
        // CaseIterable keeps declaration order, which is the storage order.
        Threshold.indexTable[self] ?? 0
    }

    private static let indexTable: [Threshold: Int] = {
        var table: [Threshold: Int] = [:]
        for (i, key) in Threshold.allCases.enumerated() { table[key] = i }
        return table
    }()
}

/// A full set of threshold values; starts at the defaults.
public struct Thresholds: Equatable, Sendable {
    private var values: [Double] = Threshold.allCases.map { $0.defaultValue }

    public init() {}

    public subscript(key: Threshold) -> Double {
        get { values[key.index] }
        set { values[key.index] = newValue }
    }

    /// A switch (`Threshold.isSwitch`): on or off, as `config{}` set it.
    public func isOn(_ key: Threshold) -> Bool {
        values[key.index] != 0
    }

    /// Sets a threshold by its `config{}` name.
    public mutating func set(name: String, value: Double) throws(ConfigKeyError) {
        guard let key = Threshold(rawValue: name) else { throw .unknown(name) }
        if let choices = key.choices { throw .notAChoice(key, choices) }
        if key.isSwitch, value != 0, value != 1 { throw .notASwitch(key, value) }
        guard value.isFinite, key.range.contains(value) else { throw .outOfRange(key, value) }
        if key.isWhole, value != value.rounded() { throw .notWhole(key, value) }
        self[key] = value
    }

    /// Sets a key whose values are names (`Threshold.choices`).
    public mutating func set(name: String, choice: String) throws(ConfigKeyError) {
        guard let key = Threshold(rawValue: name) else { throw .unknown(name) }
        guard let choices = key.choices else { throw .notANumber(key) }
        guard let i = choices.firstIndex(of: choice.lowercased()) else { throw .unknownChoice(key, choice, choices) }
        self[key] = Double(i)
    }
}

/// Why `config{}` cannot set a threshold.
public enum ConfigKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(String)
    case outOfRange(Threshold, Double)
    case notWhole(Threshold, Double)
    /// A number for a key set by a name.
    case notAChoice(Threshold, [String])
    case unknownChoice(Threshold, String, [String])
    /// A name for a key set by a number.
    case notANumber(Threshold)
    /// A number other than 0 or 1 for a switch.
    case notASwitch(Threshold, Double)

    public var description: String {
        switch self {
        case .unknown(let name):
            let names = Threshold.allCases.map { $0.rawValue }.joined(separator: ", ")
            return "unknown config key \"\(name)\"; known keys: \(names)"
        case let .outOfRange(key, value):
            return "config key \"\(key.rawValue)\" must be between \(Self.format(key.range.lowerBound)) and \(Self.format(key.range.upperBound)) \(key.unit), not \(Self.format(value))"
        case let .notWhole(key, value):
            return "config key \"\(key.rawValue)\" must be a whole number, not \(Self.format(value))"
        case let .notAChoice(key, choices):
            return "config key \"\(key.rawValue)\" must be one of \(Self.list(choices)), such as \(key.rawValue) = \"\(choices[min(1, choices.count - 1)])\""
        case let .unknownChoice(key, given, choices):
            return "config key \"\(key.rawValue)\" must be one of \(Self.list(choices)), not \"\(TerminalText.escaped(String(given.prefix(64))))\""
        case let .notANumber(key):
            return "config key \"\(key.rawValue)\" must be a number"
        case let .notASwitch(key, value):
            return "config key \"\(key.rawValue)\" is on or off: true or false (or 1 or 0), not \(Self.format(value))"
        }
    }

    private static func list(_ choices: [String]) -> String {
        choices.count > 1 ? choices.dropLast().map { "\"\($0)\"" }.joined(separator: ", ") + " or \"\(choices[choices.count - 1])\"" : choices.map { "\"\($0)\"" }.joined()
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
