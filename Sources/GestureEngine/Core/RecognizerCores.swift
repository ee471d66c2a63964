import GestureCore

/// What passes between the recognizer cores (one in each device's lane:
/// each surface has its own touch sequences) and the rules.
struct RecognizerCores {
    /// What the last call into a core delivered, for the rules' handlers.
    var deliveries: [Delivery] = []
    /// The script changed its rules since the cores last had them.
    var rulesStale = true
    /// A core is working (a Lua recognizer's code runs inside it): rule
    /// changes wait until it returns.
    var insideArena = false
    /// What drawn shapes are matched against (UserGestures.swift).
    var shapeTemplates = BuiltinShapes.templates
}
