/// Tells a recorded mouse's events from a touch device's in an evdev stream
/// (evemu, evtest, raw records), so that a mouse's go to the stroke gate
/// rather than the touch assembler, which has nothing to make of them.
///
/// A description decides when it can: absolute axes are a touch device's,
/// relative X and Y without them a mouse's. Raw records carry no description,
/// so their first motion decides: `EV_REL` a mouse, `EV_ABS` a touch device.
/// The buttons and reports before it wait (a mouse's press comes before its
/// motion) and then go where the motion went.
struct MouseRecordingSort: Sendable {
    enum Kind: Sendable { case undecided, mouse, touch }

    /// What the description says; `.undecided` when it says nothing.
    private var described = Kind.undecided
    /// What the events said, when the description did not.
    private var seen = Kind.undecided
    private var pending: [EvdevEvent] = []
    /// The mouse's events sent on.
    private(set) var mouseEventCount = 0
    /// Events that wait for a decision; past them the stream is taken for a
    /// touch device's, as before there were mice, and nothing more is kept.
    static let maxPending = 256

    var kind: Kind { described == .undecided ? seen : described }

    mutating func describe(_ description: EvdevDescription) {
        if description.hasPositionAxes || description.hasAbsoluteBits {
            described = .touch
        } else if description.relativeAxes.contains(REL.x), description.relativeAxes.contains(REL.y) {
            described = .mouse
        } else {
            described = .undecided
        }
    }

    /// Sends `event` to `mouse` when it is a mouse's, or to `touch`, with any
    /// events that waited for the decision it makes.
    @inline(__always)
    mutating func route(_ event: EvdevEvent, touch: (EvdevEvent) -> Void, mouse: (EvdevEvent) -> Void) {
        switch kind {
        case .touch:
            touch(event)
        case .mouse:
            mouseEventCount &+= 1
            mouse(event)
        case .undecided:
            decide(event, touch: touch, mouse: mouse)
        }
    }

    private mutating func decide(_ event: EvdevEvent, touch: (EvdevEvent) -> Void, mouse: (EvdevEvent) -> Void) {
        switch event.type {
        case EV.rel:
            seen = .mouse
        case EV.abs:
            seen = .touch
        default:
            guard pending.count >= Self.maxPending else {
                pending.append(event)
                return
            }
            seen = .touch
        }
        let waited = pending
        pending = []
        for e in waited { route(e, touch: touch, mouse: mouse) }
        route(event, touch: touch, mouse: mouse)
    }

    /// The input ended undecided: what waited is a touch device's, as it was before.
    mutating func finish(touch: (EvdevEvent) -> Void) {
        let waited = pending
        pending = []
        for e in waited { touch(e) }
    }
}
