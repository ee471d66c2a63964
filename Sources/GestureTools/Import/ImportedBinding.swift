import GestureCore

/// One binding of another tool's configuration, said in gesturemap's terms:
/// the gesture, the context it is limited to, and what it does.
public struct ImportedBinding: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case swipe, pinch, rotate, tap, longPress = "long press", pan
        /// A gesture gesturemap has no word for: the tool never runs it either.
        case other = "gesture"
    }

    /// The line of the source file the binding was read from.
    public var line: Int
    public var kind: Kind
    /// nil: any finger count (a libinput-gestures line or a fusuma section without one).
    public var fingers: Int?
    /// gesturemap's words: left, up-left, in, clockwise...; nil for every direction.
    public var direction: String?
    /// Taps, for a tap: 2 for a double tap.
    public var taps: Int
    /// nil: the rule's own moment (recognition, or a continuous gesture's start);
    /// otherwise the one phase of a continuous gesture this action belongs to.
    public var phase: Phase?
    /// A continuous gesture's direction that the action is kept to, inside a rule
    /// for every direction: `pan` left/right/up/down, `pinch` in/out, `rotate`
    /// clockwise/counterclockwise.
    public var onlyWhen: String?
    /// The applications the rule is limited to (X11 WM_CLASS values), each
    /// matched whole; nil for every application.
    public var apps: AppList?
    /// Held keys, in gesturemap's words ("ctrl+shift").
    public var modifiers: String?
    public var action: ImportedAction
    /// Why the rule differs from the original, for the comment above it.
    public var notes: [String]
    /// What the source said, in its own words, for the comment above the rule.
    public var original: String
    /// How many of the source's bindings this rule stands for: Touchégg binds a
    /// gesture once for each name in `<application name="A,B">`.
    public var sourceCount = 1
    /// Whether the tool keeps the binding in its table whatever it does, so
    /// that it replaces an earlier binding for the same gesture, and a rule
    /// for more (every application, any finger count) does not run in its place.
    public var keepsSlot = true

    public enum Phase: String, Sendable {
        case began, changed, ended, cancelled
    }

    public init(line: Int, kind: Kind, fingers: Int?, direction: String? = nil, taps: Int = 1, phase: Phase? = nil,
                apps: AppList? = nil, modifiers: String? = nil, action: ImportedAction, notes: [String] = [], original: String) {
        self.line = line
        self.kind = kind
        self.fingers = fingers
        self.direction = direction
        self.taps = taps
        self.phase = phase
        self.apps = apps
        self.modifiers = modifiers
        self.action = action
        self.notes = notes
        self.original = original
    }

    /// Long presses, pans, and pinches or rotations in no direction run phase by phase.
    public var isContinuous: Bool {
        kind == .longPress || kind == .pan || ((kind == .pinch || kind == .rotate) && direction == nil)
    }

    /// The handler-table slot: a continuous gesture's plain handler runs as it begins.
    public var handlerPhase: Phase? { phase ?? (isContinuous ? .began : nil) }

    /// Whether two bindings are one gesturemap rule: of rules for one gesture in
    /// one context, only the last defined runs.
    func sameRule(as other: ImportedBinding) -> Bool {
        ruleKey == other.ruleKey
    }

    /// Equal for bindings that are one rule (apps compared as gesturemap does, in either case).
    var ruleKey: String {
        "\(kind.rawValue)|\(fingers.map(String.init) ?? "any")|\(direction ?? "")|\(taps)|\(apps.map { "apps\($0.setID)" } ?? "")|\(modifiers ?? "")"
    }

    /// A live rule that does nothing (`.nothing`).
    public var isNothing: Bool {
        if case .nothing = action { return true }
        return false
    }

    /// Whether the rule is written live or commented out.
    public var isLive: Bool {
        if case .unsupported = action { return false }
        return fingersProblem == nil
    }

    /// Why gesturemap has no rule for this many fingers of this gesture (the
    /// limits `GestureSpec.validate` sets, which `check` would report); nil when it has.
    public var fingersProblem: String? {
        guard let fingers else { return nil }
        if !(1...GestureSpec.maxFingers).contains(fingers) {
            return "\(fingers) fingers: gesturemap recognizes gestures of 1 to \(GestureSpec.maxFingers) fingers"
        }
        if fingers < 2 && (kind == .pinch || kind == .rotate) {
            return "1 finger: gesturemap's \(kind.rawValue) needs at least 2 fingers, so a 1-finger one never happens there"
        }
        return nil
    }
}

/// What a binding does.
public enum ImportedAction: Equatable, Sendable {
    /// A command line the original tool ran through a shell: `shell(...)`.
    case shell(String)
    /// A program and its arguments, run without a shell: `exec{...}`.
    case exec([String])
    /// Key combinations pressed one after another, each a `key(...)`.
    case keys([String])
    /// Nothing gesturemap can do: the reason, for the commented-out rule and stderr.
    case unsupported(String)
    /// A rule that does nothing, written live so that a broader rule does not
    /// run in its place (the tool did something here gesturemap cannot): the reason.
    case nothing(String)
}
