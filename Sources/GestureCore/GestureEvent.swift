/// A recognized gesture, or one phase of a continuous one; what a rule handler receives.
///
/// Every field is always present so that building a handler's table never branches
/// on kind; fields that mean nothing for a kind keep their neutral value.
public struct GestureEvent: Equatable, Sendable {
    public var kind: GestureKind
    public var phase: GesturePhase
    public var fingers: Int
    public var direction: Direction?
    /// The input clock's time of this event, in seconds.
    public var time: Double
    /// Seconds since the gesture's first finger landed.
    public var duration: Double
    /// The input time its gesture began: its first finger landed (a multi-tap's
    /// first tap). It places the gesture in its touch sequence, however late it
    /// is reported, and decides ties (docs/state-machine.md).
    public var start: Double
    /// How far the fingers moved, mm: a swipe's stroke, a pan's travel since its
    /// fingers landed (a late finger adds none of its jump), the others' centroid.
    public var delta: Vector
    /// Speed in mm/s along `delta` (swipes: mean; pan: recent).
    public var velocity: Double
    /// Centroid of the fingers, mm from the top-left corner.
    public var position: Vector
    /// Centroid as a fraction of the surface (0...1) when its size is known.
    public var normalized: Vector?
    public var scale: Double
    /// Degrees, positive clockwise on screen (y down).
    public var rotation: Double
    public var taps: Int
    public var edge: Edge?
    /// Contacts resting still beside the gesture's fingers, not counted in `fingers`.
    public var resting: Int
    public var device: Int
    /// The shape drawn (kind `shape`), or the name of the Lua recognizer (kind `custom`).
    public var name: String?
    /// How closely a shape matched its template: 1 exactly, falling to 0.
    public var score: Double
    /// What a Lua recognizer attached, for handlers to read in `g`.
    public var fields: [GestureField]?
    /// Recognized once (`possible → ended`), rather than began, changed and ended.
    /// Fixed by the kind for built-in kinds; a Lua recognizer chooses per gesture.
    public var isDiscrete: Bool

    public init(
        kind: GestureKind, phase: GesturePhase, fingers: Int, direction: Direction? = nil,
        time: Double, duration: Double = 0, delta: Vector = .zero, velocity: Double = 0,
        position: Vector = .zero, normalized: Vector? = nil, scale: Double = 1, rotation: Double = 0,
        taps: Int = 0, edge: Edge? = nil, resting: Int = 0, device: Int = 0,
        name: String? = nil, score: Double = 0, fields: [GestureField]? = nil, isDiscrete: Bool? = nil, start: Double? = nil
    ) {
        self.kind = kind
        self.phase = phase
        self.fingers = fingers
        self.direction = direction
        self.time = time
        self.duration = duration
        self.start = start ?? time - duration
        self.delta = delta
        self.velocity = velocity
        self.position = position
        self.normalized = normalized
        self.scale = scale
        self.rotation = rotation
        self.taps = taps
        self.edge = edge
        self.resting = resting
        self.device = device
        self.name = name
        self.score = score
        self.fields = fields
        self.isDiscrete = isDiscrete ?? !kind.isContinuous
    }

    public var distance: Double { delta.length }
}
