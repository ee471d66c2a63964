import GestureCore

/// The recognizer cores of a run, one per device index (each surface has its
/// own touch sequences), and what passes between them and the rules.
struct RecognizerCores {
    /// An array of boxes, not a dictionary of values: this is the per-frame
    /// path, and a boxed core is read and changed where it lies.
    var arenas: [ArenaBox?] = []
    /// What the last call into a core delivered, for the rules' handlers.
    var deliveries: [Delivery] = []
    /// The script changed its rules since the cores last had them.
    var rulesStale = true
    /// A core is working (a Lua recognizer's code runs inside it): rule
    /// changes wait until it returns.
    var insideArena = false
    /// Devices already told that edge swipes need a surface size.
    var edgesExplained: Set<Int> = []
    /// What drawn shapes are matched against (UserGestures.swift).
    var shapeTemplates = BuiltinShapes.templates
}

/// A device's recognizer core, held by reference so the engine's loop reads
/// and changes it in place.
final class ArenaBox {
    var arena: GestureArena

    init(_ arena: GestureArena) {
        self.arena = arena
    }
}
