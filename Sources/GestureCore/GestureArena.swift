/// The recognizer core: one recognizer per bound kind, fed the same frames, with
/// arbitration between them done here and only here.
///
/// Input is frames and the passage of input time; output is deliveries (a rule
/// index and its gesture event). No I/O and no clock: replay and live input
/// differ only in who calls `advance(to:)`.
public struct GestureArena: Sendable {
    public private(set) var rules: [GestureRule]
    public private(set) var thresholds: Thresholds
    public private(set) var tracker = TouchTracker()
    private var recognizers: [any Recognizer] = []
    private var transitions: [Transition] = []
    /// The rule serving each running continuous gesture, by recognizer index.
    private var servingRule: [Int?] = []
    /// Rules changed while a gesture was under way: the recognizers are rebuilt
    /// when it is over, so no gesture is recognized twice or cut in half.
    private var rebuildPending = false

    /// When set, every transition is described in `traceLines` for `--trace`.
    public var tracing = false
    public var traceLines: [String] = []

    public init(rules: [GestureRule], thresholds: Thresholds = Thresholds()) {
        self.rules = rules
        self.thresholds = thresholds
        rebuild()
    }

    /// Turns rules on or off (mode switches, `binding:disable()`); recognizers for
    /// kinds no active rule binds stop running.
    /// Matching follows the new activity at once; recognizers follow when the
    /// current gesture is over.
    public mutating func setActive(_ active: [Bool]) {
        var changed = false
        for i in rules.indices where i < active.count && rules[i].isActive != active[i] {
            rules[i].isActive = active[i]
            changed = true
        }
        if changed { scheduleRebuild() }
    }

    public mutating func replaceRules(_ newRules: [GestureRule], thresholds newThresholds: Thresholds) {
        rules = newRules
        thresholds = newThresholds
        scheduleRebuild()
    }

    private mutating func scheduleRebuild() {
        rebuildPending = true
        rebuildIfQuiet()
    }

    private mutating func rebuildIfQuiet() {
        guard rebuildPending, !tracker.isActive else { return }
        for r in recognizers where r.deadline != nil { return }
        rebuildPending = false
        rebuild()
    }

    /// The earliest input time at which `advance(to:)` has work to do.
    public var nextDeadline: Double? {
        var earliest: Double?
        for r in recognizers {
            if let d = r.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        return earliest
    }

    public mutating func handle(_ frame: TouchFrame, into out: inout [Delivery]) {
        advance(to: frame.time, into: &out)
        tracker.update(with: frame)
        for i in recognizers.indices {
            recognizers[i].handle(frame, tracker: tracker, into: &transitions)
        }
        resolve(at: frame.time, into: &out)
        if !tracker.isActive { endSequence(at: frame.time, into: &out) }
        rebuildIfQuiet()
    }

    /// Fires every deadline up to `time`, earliest first.
    public mutating func advance(to time: Double, into out: inout [Delivery]) {
        while let (index, due) = earliestDeadline(), due <= time {
            recognizers[index].advance(to: due, tracker: tracker, into: &transitions)
            resolve(at: due, into: &out)
            if !tracker.isActive { endSequence(at: due, into: &out) }
            if recognizers[index].deadline == due { break }  // a recognizer that ignored its own deadline
        }
        rebuildIfQuiet()
    }

    /// End of input: every pending deadline fires, in order.
    public mutating func finish(into out: inout [Delivery]) {
        while let (_, due) = earliestDeadline() {
            let before = recognizers.map { $0.deadline }
            advance(to: due, into: &out)
            if recognizers.map({ $0.deadline }) == before { break }
        }
    }

    private func earliestDeadline() -> (Int, Double)? {
        var best: (Int, Double)?
        for i in recognizers.indices {
            if let d = recognizers[i].deadline, best.map({ d < $0.1 }) ?? true { best = (i, d) }
        }
        return best
    }

    // MARK: - Configuration

    private mutating func rebuild() {
        var swipeFingers = FingerMask()
        var swipeEightWay = FingerMask()
        for rule in rules where rule.isActive {
            let spec = rule.spec
            switch spec.kind {
            case .swipe:
                swipeFingers.insert(spec.fingers)
                if spec.direction?.isDiagonal == true { swipeEightWay.insert(spec.fingers) }
            default:
                break
            }
        }
        recognizers.removeAll()
        if !swipeFingers.isEmpty {
            recognizers.append(SwipeRecognizer(config: .init(fingers: swipeFingers, eightWay: swipeEightWay, thresholds: thresholds)))
        }
        servingRule = Array(repeating: nil, count: recognizers.count)
    }

    // MARK: - Arbitration

    private mutating func resolve(at time: Double, into out: inout [Delivery]) {
        var i = 0
        while i < transitions.count {
            let transition = transitions[i]
            i += 1
            if tracing { traceLines.append(describe(transition, at: time)) }
            guard let event = transition.event, let index = recognizerIndex(of: transition.kind) else { continue }
            let rule: Int?
            if event.phase == .began || transition.kind.isContinuous == false {
                rule = bestRule(for: event)
                servingRule[index] = rule
            } else {
                rule = servingRule[index]
            }
            guard let rule else { continue }
            if event.phase == .began || !transition.kind.isContinuous {
                claimSequence(winner: index, at: time)
            }
            if wantsDelivery(rule: rule, phase: event.phase, kind: transition.kind) {
                out.append(Delivery(rule: rule, event: event))
            }
        }
        transitions.removeAll(keepingCapacity: true)
    }

    /// The narrowest active rule that matches; among equals, the one defined last.
    private func bestRule(for event: GestureEvent) -> Int? {
        var best: Int?
        var bestSpecificity = -1
        for (i, rule) in rules.enumerated() where rule.isActive && rule.spec.matches(event) {
            if rule.spec.specificity >= bestSpecificity {
                best = i
                bestSpecificity = rule.spec.specificity
            }
        }
        return best
    }

    private func wantsDelivery(rule: Int, phase: GesturePhase, kind: GestureKind) -> Bool {
        if rules[rule].allPhases { return true }
        return kind.isContinuous && !rules[rule].spec.isDiscrete ? phase == .began : phase == .ended
    }

    /// A recognized gesture owns its touch sequence: every other recognizer that
    /// could still recognize fails.
    private mutating func claimSequence(winner: Int, at time: Double) {
        for i in recognizers.indices where i != winner && recognizers[i].state == .possible {
            recognizers[i].forceFail(at: time, into: &transitions)
        }
    }

    private mutating func endSequence(at time: Double, into out: inout [Delivery]) {
        for i in recognizers.indices {
            if recognizers[i].state.isTerminal {
                recognizers[i].reset()
                servingRule[i] = nil
            }
        }
    }

    private func recognizerIndex(of kind: GestureKind) -> Int? {
        recognizers.firstIndex { $0.kind == kind }
    }

    private func describe(_ t: Transition, at time: Double) -> String {
        var line = "t=\(time) \(t.kind.rawValue): \(t.from.rawValue) → \(t.cause) → \(t.to.rawValue)"
        if let e = t.event {
            line += " (\(e.fingers)-finger"
            if let d = e.direction { line += " \(d.rawValue)" }
            line += ")"
        }
        return line
    }
}
