import GestureContext
import GestureCore

/// A rule as the script layer keeps it: the core's view plus its handler.
struct ScriptRule {
    var core: GestureRule
    /// Registry reference to the handler function or handler table.
    var handler: Int32
    var handlerIsTable: Bool
    /// "rules.lua:12", where `on()` was called.
    var definedAt: String
    var description: String?
    /// Live only in this mode; nil for every mode.
    var mode: String?
    /// A Lua pattern the device's name must match.
    var devicePattern: String?
    /// Whether it matched each device name seen: the core asks on every mode
    /// switch, and a pattern may take up to 100,000 steps.
    var deviceMatches: [String: Bool] = [:]
    /// Continuous gestures: run the handler again for every this many millimetres.
    var repeatDistance: Double?
    /// `app`: Lua patterns, one of which the focused application's id must
    /// match; nil for every application (and none).
    var app: AppPatterns?
    /// `modifiers`: exactly these modifier keys must be held; nil for any.
    var modifiers: Modifiers?
    var enabled = true
    var removed = false
    /// Failures in a row; at `ScriptRuntime.maxConsecutiveFailures` the rule is disabled.
    var consecutiveFailures = 0
    /// The gesture under way was skipped by the cooldown: skip its other phases too.
    var skippingGesture = false
    /// `repeat`: how far the gesture had travelled when the handler last ran.
    var repeatAnchor = 0.0

    var label: String { core.name ?? core.spec.phrase }
}

/// Rules that could not be loaded: every problem found, each as `file:line: message`.
public struct RuleLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String { problems.joined(separator: "\n") }
}

/// `after(sec, fn)` and `every(sec, fn)`, on the input's clock.
struct LuaTimer {
    var id: Int
    var due: Double
    /// Seconds between runs for `every`; nil for `after`.
    var interval: Double?
    /// Registry reference to the function.
    var function: Int32
    var origin: String
    /// The input instant (`TimerInstant.serial`) it was made in.
    var madeIn = 0
    /// `every`: runs made in the input instant `catchUpInstant`, to cap catching up.
    var catchUps = 0
    var catchUpInstant = -Double.infinity
}
