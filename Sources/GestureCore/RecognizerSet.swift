/// The arena's recognizers, stored as concrete values rather than existentials:
/// each is mutated in place, with no boxing and no reference counting, on the
/// path every frame takes. Indexed in arbitration order; `order` says which are
/// live. The slots are not optionals because reading a field through an
/// optional struct copies the whole struct first, once per frame per kind.
struct RecognizerSet: Sendable {
    enum Which: Equatable, Sendable {
        case edgeSwipe, swipe, pinch, rotate, longPress, tap, pan, shape
        /// A recognizer defined in Lua, by its place in `custom`.
        case custom(Int)
    }

    private(set) var order: [Which] = []
    private var edgeSwipe = SwipeRecognizer(config: .init())
    private var swipe = SwipeRecognizer(config: .init())
    private var pinch = TransformRecognizer(measure: .pinch, config: .init())
    private var rotate = TransformRecognizer(measure: .rotate, config: .init())
    private var longPress = LongPressRecognizer(config: .init())
    private var tap = TapRecognizer(config: .init())
    private var pan = PanRecognizer(config: .init())
    private var shape = ShapeRecognizer(config: .init())
    private var custom: [ScriptedRecognizer] = []

    /// The recognizer with the earliest deadline, kept up to date by every
    /// change, so asking costs a load rather than a scan.
    private(set) var earliest: (slot: SlotID, due: Double)?

    var count: Int { order.count }
    var slots: LazyMapSequence<Range<Int>, SlotID> { order.indices.lazy.map(SlotID.init) }

    mutating func removeAll() {
        self = RecognizerSet()
    }

    mutating func add(edgeSwipe r: SwipeRecognizer) { edgeSwipe = r; order.append(.edgeSwipe) }
    mutating func add(swipe r: SwipeRecognizer) { swipe = r; order.append(.swipe) }
    mutating func add(pinch r: TransformRecognizer) { pinch = r; order.append(.pinch) }
    mutating func add(rotate r: TransformRecognizer) { rotate = r; order.append(.rotate) }
    mutating func add(longPress r: LongPressRecognizer) { longPress = r; order.append(.longPress) }
    mutating func add(tap r: TapRecognizer) { tap = r; order.append(.tap) }
    mutating func add(pan r: PanRecognizer) { pan = r; order.append(.pan) }
    mutating func add(shape r: ShapeRecognizer) { shape = r; order.append(.shape) }
    mutating func add(custom r: ScriptedRecognizer) { custom.append(r); order.append(.custom(custom.count - 1)) }

    /// A Lua recognizer's name; nil for the built-in kinds.
    func name(_ slot: SlotID) -> String? {
        guard case .custom(let i) = order[slot.index] else { return nil }
        return custom[i].name
    }

    var tracksRotation: Bool { order.contains(.rotate) }

    func kind(_ slot: SlotID) -> GestureKind {
        switch order[slot.index] {
        case .edgeSwipe: return .edgeSwipe
        case .swipe: return .swipe
        case .pinch: return .pinch
        case .rotate: return .rotate
        case .longPress: return .longPress
        case .tap: return .tap
        case .pan: return .pan
        case .shape: return .shape
        case .custom: return .custom
        }
    }

    func state(_ slot: SlotID) -> RecognizerState {
        switch order[slot.index] {
        case .edgeSwipe: return edgeSwipe.state
        case .swipe: return swipe.state
        case .pinch: return pinch.state
        case .rotate: return rotate.state
        case .longPress: return longPress.state
        case .tap: return tap.state
        case .pan: return pan.state
        case .shape: return shape.state
        case .custom(let i): return custom[i].state
        }
    }

    func deadline(_ slot: SlotID) -> Double? {
        switch order[slot.index] {
        case .edgeSwipe: return edgeSwipe.deadline
        case .swipe: return swipe.deadline
        case .pinch: return pinch.deadline
        case .rotate: return rotate.deadline
        case .longPress: return longPress.deadline
        case .tap: return tap.deadline
        case .pan: return pan.deadline
        case .shape: return shape.deadline
        case .custom(let i): return custom[i].deadline
        }
    }

    func spansSequences(_ slot: SlotID) -> Bool {
        order[slot.index] == .tap && tap.spansSequences
    }

    /// `lastOfInstant`: no other frame at this time follows (Lua recognizers
    /// are asked once per instant).
    mutating func handle(_ slot: SlotID, _ frame: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool, into out: inout [Transition]) {
        switch order[slot.index] {
        case .edgeSwipe: edgeSwipe.handle(frame, tracker: tracker, into: &out)
        case .swipe: swipe.handle(frame, tracker: tracker, into: &out)
        case .pinch: pinch.handle(frame, tracker: tracker, into: &out)
        case .rotate: rotate.handle(frame, tracker: tracker, into: &out)
        case .longPress: longPress.handle(frame, tracker: tracker, into: &out)
        case .tap: tap.handle(frame, tracker: tracker, into: &out)
        case .pan: pan.handle(frame, tracker: tracker, into: &out)
        case .shape: shape.handle(frame, tracker: tracker, into: &out)
        case .custom(let i): custom[i].handle(frame, tracker: tracker, lastOfInstant: lastOfInstant, into: &out)
        }
        refreshEarliest()
    }

    mutating func advance(_ slot: SlotID, to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        switch order[slot.index] {
        case .edgeSwipe: edgeSwipe.advance(to: time, tracker: tracker, into: &out)
        case .swipe: swipe.advance(to: time, tracker: tracker, into: &out)
        case .pinch: pinch.advance(to: time, tracker: tracker, into: &out)
        case .rotate: rotate.advance(to: time, tracker: tracker, into: &out)
        case .longPress: longPress.advance(to: time, tracker: tracker, into: &out)
        case .tap: tap.advance(to: time, tracker: tracker, into: &out)
        case .pan: pan.advance(to: time, tracker: tracker, into: &out)
        case .shape: shape.advance(to: time, tracker: tracker, into: &out)
        case .custom(let i): custom[i].advance(to: time, tracker: tracker, into: &out)
        }
        refreshEarliest()
    }

    mutating func forceFail(_ slot: SlotID, at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        switch order[slot.index] {
        case .edgeSwipe: edgeSwipe.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .swipe: swipe.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .pinch: pinch.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .rotate: rotate.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .longPress: longPress.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .tap: tap.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .pan: pan.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .shape: shape.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        case .custom(let i): custom[i].forceFail(at: time, cause: cause, tracker: tracker, into: &out)
        }
        refreshEarliest()
    }

    mutating func reset(_ slot: SlotID) {
        switch order[slot.index] {
        case .edgeSwipe: edgeSwipe.reset()
        case .swipe: swipe.reset()
        case .pinch: pinch.reset()
        case .rotate: rotate.reset()
        case .longPress: longPress.reset()
        case .tap: tap.reset()
        case .pan: pan.reset()
        case .shape: shape.reset()
        case .custom(let i): custom[i].reset()
        }
        refreshEarliest()
    }

    private mutating func refreshEarliest() {
        var best: (slot: SlotID, due: Double)?
        for slot in slots {
            if let d = deadline(slot), best.map({ d < $0.due }) ?? true { best = (slot, d) }
        }
        earliest = best
    }
}
