/// The arena's recognizers, stored as concrete values rather than existentials:
/// each is mutated in place, with no boxing and no reference counting, on the
/// path every frame takes. Indexed in arbitration order; `order` says which are
/// live. The slots are not optionals because reading a field through an
/// optional struct copies the whole struct first, once per frame per kind.
///
/// Every operation goes through one generic path, `visit`: the one switch
/// over the stored kinds, handing the recognizer to a `RecognizerVisitor`
/// that the compiler specialises for each concrete type.
struct RecognizerSet: Sendable {
    enum Which: Equatable, Sendable {
        case edgeSwipe, swipe, pinch, rotate, longPress, tap, pan, shape, click
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
    private var click = ClickRecognizer(config: .init())
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
    mutating func add(click r: ClickRecognizer) { click = r; order.append(.click) }
    mutating func add(custom r: ScriptedRecognizer) {
        custom.append(r)
        firstAsking = min(firstAsking, order.count)
        order.append(.custom(custom.count - 1))
    }

    /// The one dispatch from a slot to its recognizer, for changing it. The
    /// tracker and the transitions pass through as arguments, not copies.
    @inline(__always)
    private mutating func visit<V: RecognizerVisitor>(_ slot: SlotID, _ visitor: V, tracker: TouchTracker, into out: inout [Transition]) {
        switch order[slot.index] {
        case .edgeSwipe: visitor.visit(&edgeSwipe, tracker: tracker, into: &out)
        case .swipe: visitor.visit(&swipe, tracker: tracker, into: &out)
        case .pinch: visitor.visit(&pinch, tracker: tracker, into: &out)
        case .rotate: visitor.visit(&rotate, tracker: tracker, into: &out)
        case .longPress: visitor.visit(&longPress, tracker: tracker, into: &out)
        case .tap: visitor.visit(&tap, tracker: tracker, into: &out)
        case .pan: visitor.visit(&pan, tracker: tracker, into: &out)
        case .shape: visitor.visit(&shape, tracker: tracker, into: &out)
        case .click: visitor.visit(&click, tracker: tracker, into: &out)
        case .custom(let i): visitCustom(i, visitor, tracker: tracker, into: &out)
        }
        refreshEarliest()
    }

    /// Out of line: inlined, the compiler made the Lua recognizers' array
    /// unique on every call, whichever kind the slot held.
    @inline(never)
    private mutating func visitCustom<V: RecognizerVisitor>(_ i: Int, _ visitor: V, tracker: TouchTracker, into out: inout [Transition]) {
        visitor.visit(&custom[i], tracker: tracker, into: &out)
    }

    /// The one dispatch from a slot to its recognizer, for reading it.
    @inline(__always)
    private func read<V: RecognizerReader>(_ slot: SlotID, _ reader: V) -> V.Result {
        switch order[slot.index] {
        case .edgeSwipe: return reader.read(edgeSwipe)
        case .swipe: return reader.read(swipe)
        case .pinch: return reader.read(pinch)
        case .rotate: return reader.read(rotate)
        case .longPress: return reader.read(longPress)
        case .tap: return reader.read(tap)
        case .pan: return reader.read(pan)
        case .shape: return reader.read(shape)
        case .click: return reader.read(click)
        case .custom(let i): return reader.read(custom[i])
        }
    }

    /// A Lua recognizer's name; nil for the built-in kinds.
    func name(_ slot: SlotID) -> String? { read(slot, NameReader()) }
    func kind(_ slot: SlotID) -> GestureKind { read(slot, KindReader()) }
    func state(_ slot: SlotID) -> RecognizerState { read(slot, StateReader()) }
    func deadline(_ slot: SlotID) -> Double? { read(slot, DeadlineReader()) }
    func spansSequences(_ slot: SlotID) -> Bool { read(slot, SpanReader()) }
    func request(_ slot: SlotID) -> ExternalRequest? { read(slot, RequestReader()) }

    /// Whether every recognizer has decided: asked every frame.
    // Inlined: a call from the arena's mutating methods would copy the set.
    var allTerminal: Bool {
        @inline(__always) get {
            for i in order.indices where !read(SlotID(index: i), StateReader()).isTerminal { return false }
            return true
        }
    }

    /// Slots before this one hold built-in kinds, which never ask anything.
    private(set) var firstAsking = Int.max

    var tracksRotation: Bool { order.contains(.rotate) }

    /// `lastOfInstant`: no other frame at this time follows (Lua recognizers
    /// are asked once per instant).
    mutating func handle(_ slot: SlotID, _ frame: TouchFrame, tracker: TouchTracker, lastOfInstant: Bool, into out: inout [Transition]) {
        visit(slot, FrameStep(frame: frame, lastOfInstant: lastOfInstant), tracker: tracker, into: &out)
    }

    mutating func advance(_ slot: SlotID, to time: Double, tracker: TouchTracker, into out: inout [Transition]) {
        visit(slot, DeadlineStep(time: time), tracker: tracker, into: &out)
    }

    mutating func forceFail(_ slot: SlotID, at time: Double, cause: TransitionCause, tracker: TouchTracker, into out: inout [Transition]) {
        visit(slot, FailStep(time: time, cause: cause), tracker: tracker, into: &out)
    }

    mutating func answer(_ slot: SlotID, _ reply: ExternalReply, tracker: TouchTracker, into out: inout [Transition]) {
        visit(slot, AnswerStep(reply: reply), tracker: tracker, into: &out)
    }

    mutating func reset(_ slot: SlotID) {
        var none: [Transition] = []
        visit(slot, ResetStep(), tracker: .noTouches, into: &none)
    }

    private mutating func refreshEarliest() {
        var best: (slot: SlotID, due: Double)?
        for slot in slots {
            if let d = deadline(slot), best.map({ d < $0.due }) ?? true { best = (slot, d) }
        }
        earliest = best
    }
}

/// An operation on whichever recognizer a slot holds, written once for all.
protocol RecognizerVisitor {
    func visit<R: Recognizer>(_ recognizer: inout R, tracker: TouchTracker, into out: inout [Transition])
}

/// A question about whichever recognizer a slot holds, written once for all.
protocol RecognizerReader {
    associatedtype Result
    func read<R: Recognizer>(_ recognizer: R) -> Result
}

private struct NameReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> String? { r.customName }
}

private struct KindReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> GestureKind { r.kind }
}

private struct StateReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> RecognizerState { r.state }
}

private struct DeadlineReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> Double? { r.deadline }
}

private struct SpanReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> Bool { r.spansSequences }
}

private struct RequestReader: RecognizerReader {
    func read<R: Recognizer>(_ r: R) -> ExternalRequest? { r.request }
}

private struct FrameStep: RecognizerVisitor {
    let frame: TouchFrame
    let lastOfInstant: Bool
    func visit<R: Recognizer>(_ r: inout R, tracker: TouchTracker, into out: inout [Transition]) {
        r.handle(frame, tracker: tracker, lastOfInstant: lastOfInstant, into: &out)
    }
}

private struct DeadlineStep: RecognizerVisitor {
    let time: Double
    func visit<R: Recognizer>(_ r: inout R, tracker: TouchTracker, into out: inout [Transition]) {
        r.advance(to: time, tracker: tracker, into: &out)
    }
}

private struct FailStep: RecognizerVisitor {
    let time: Double
    let cause: TransitionCause
    func visit<R: Recognizer>(_ r: inout R, tracker: TouchTracker, into out: inout [Transition]) {
        r.forceFail(at: time, cause: cause, tracker: tracker, into: &out)
    }
}

private struct AnswerStep: RecognizerVisitor {
    let reply: ExternalReply
    func visit<R: Recognizer>(_ r: inout R, tracker: TouchTracker, into out: inout [Transition]) {
        r.answer(reply, tracker: tracker, into: &out)
    }
}

private struct ResetStep: RecognizerVisitor {
    func visit<R: Recognizer>(_ r: inout R, tracker: TouchTracker, into out: inout [Transition]) { r.reset() }
}
