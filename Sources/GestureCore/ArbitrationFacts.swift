/// The facts arbitration rests on, each defined once: the arena decides with
/// them, the script layer runs handlers by them, and `explain` and `draw` report
/// them. Two definitions of "the first event of a gesture" once disagreed for
/// Lua kinds, and a discrete Lua gesture ignored its rule's cooldown.
extension GestureEvent {
    /// The first event of a gesture: `began` of a continuous one, or a discrete
    /// recognition, of a built-in kind or a Lua one. It chooses the rule, may
    /// claim the touch sequence, and starts the rule's cooldown.
    public var isFirstOfGesture: Bool { phase == .began || isDiscrete }

    /// When the touches it was made of last counted: a tap's last lift, however
    /// late the tap was reported (as the next press landed, or once its
    /// interval ran out); for other kinds, when the event was reported. It
    /// places the gesture in its touch sequence for `explain` and `draw`.
    public var lastTouched: Double { start + duration }

    /// The last event of a gesture: after it the rule gets nothing more of it.
    public var endsGesture: Bool { isDiscrete || phase == .ended || phase == .cancelled }
}

extension GestureRule {
    /// Seconds of its cooldown still to run at `time`; nil when it may fire.
    public func cooldownLeft(at time: Double) -> Double? {
        guard cooldown > 0, let last = lastFired else { return nil }
        let left = last + cooldown - time
        return left > 0 ? left : nil
    }

    /// Whether a gesture recognized at `time` may go to this rule: it is live
    /// (enabled, in the current mode, on this device, its context holding) and
    /// not in its cooldown. A rule that may not steps aside: the gesture goes to
    /// the next rule that matches, or to none, and claims nothing for it.
    public func mayReceive(at time: Double) -> Bool {
        isActive && cooldownLeft(at: time) == nil
    }

    /// What a rule receives of a gesture's events: a discrete rule (or a
    /// discrete gesture) its first event only, as `ended`; a continuous rule
    /// `began`, or every phase when its handler is a table. Nil: nothing.
    public func delivered(_ event: GestureEvent) -> GestureEvent? {
        if spec.isDiscrete || event.isDiscrete {
            guard event.isFirstOfGesture else { return nil }
            var once = event
            once.phase = .ended
            once.isDiscrete = true
            return once
        }
        return allPhases || event.phase == .began ? event : nil
    }
}
