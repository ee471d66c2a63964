extension TraceRecord {
    /// The `--trace=json` line: one object with `t`, `device`, `type` and the
    /// entry's fields. Field names and `cause` values are a contract: tools grep
    /// them, and docs/state-machine.md lists them.
    public var json: String {
        var w = JSONWriter()
        w.raw("{\"t\":")
        w.time(time)
        w.raw(",\"device\":")
        w.integer(Int64(device))
        switch entry {
        case .transition(let t):
            w.raw(",\"type\":\"transition\",\"kind\":")
            w.string(t.kind.rawValue)
            if let name = t.name {
                w.raw(",\"name\":")
                w.string(name)
            }
            w.raw(",\"from\":")
            w.string(t.from.rawValue)
            w.raw(",\"to\":")
            w.string(t.to.rawValue)
            w.raw(",\"cause\":")
            w.string(t.cause.identifier)
            w.raw(",\"reason\":")
            w.string(t.cause.description)
            if let m = t.cause.measurement { Self.write(m, into: &w) }
            if let e = t.event { Self.write(e, into: &w) }
        case .input(let note):
            w.raw(",\"type\":\"input\",\"text\":")
            w.string(note.description)
        case .lostSequence(let kind, let winner):
            w.raw(",\"type\":\"lost\",\"kind\":")
            w.string(kind)
            if let winner {
                w.raw(",\"winner\":")
                w.string(winner.description)
            }
        case .dropped(let rule, let recognized):
            w.raw(",\"type\":\"dropped\"")
            Self.write(rule, into: &w)
            w.raw(",\"recognized\":")
            Self.write(recognized, into: &w)
        case .held(let rule, let until):
            w.raw(",\"type\":\"held\"")
            Self.write(rule, into: &w)
            w.raw(",\"until\":")
            Self.write(until, into: &w)
        case .released(let rule):
            w.raw(",\"type\":\"released\"")
            Self.write(rule, into: &w)
        case .cooledDown(let rule, let left):
            w.raw(",\"type\":\"cooldown\"")
            Self.write(rule, into: &w)
            w.raw(",\"left\":")
            w.time(left)
        case .bug(let bug):
            w.raw(",\"type\":\"bug\",\"text\":")
            w.string(bug.description)
        }
        w.raw("}")
        return w.text
    }

    private static func write(_ rule: RuleLabel, into w: inout JSONWriter) {
        w.raw(",\"rule\":")
        w.string(rule.description)
        w.raw(",\"rule_index\":")
        w.integer(Int64(rule.index + 1))
    }

    private static func write(_ rules: [RuleLabel], into w: inout JSONWriter) {
        w.raw("[")
        for (i, rule) in rules.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(rule.description)
        }
        w.raw("]")
    }

    private static func write(_ m: Measurement, into w: inout JSONWriter) {
        w.raw(",\"measurement\":")
        m.write(into: &w)
    }

    private static func write(_ e: GestureEvent, into w: inout JSONWriter) {
        w.raw(",\"gesture\":{\"phase\":")
        w.string(e.phase.rawValue)
        w.raw(",\"fingers\":")
        w.integer(Int64(e.fingers))
        if let d = e.direction {
            w.raw(",\"direction\":")
            w.string(d.rawValue)
        }
        if e.kind == .tap {
            w.raw(",\"taps\":")
            w.integer(Int64(e.taps))
        }
        if let edge = e.edge {
            w.raw(",\"edge\":")
            w.string(edge.rawValue)
        }
        if e.kind == .shape, let shape = e.name {
            w.raw(",\"shape\":")
            w.string(shape)
            w.raw(",\"score\":")
            w.number(e.score)
        }
        if e.resting > 0 {
            w.raw(",\"resting\":")
            w.integer(Int64(e.resting))
        }
        w.raw("}")
    }
}

extension TransitionCause {
    /// The case's stable name, for `--trace=json` and `explain --json`.
    public var identifier: String {
        switch self {
        case .frame: return "frame"
        case .timeout: return "timeout"
        case .lift: return "lift"
        case .held: return "held"
        case .motion: return "motion"
        case .arbitration: return "arbitration"
        case .fingerLanded: return "finger_landed"
        case .fingerLifted: return "finger_lifted"
        case .newFingerCount: return "new_finger_count"
        case .nextPress: return "next_press"
        case .cameToRest: return "came_to_rest"
        case .touchCancelled: return "touch_cancelled"
        case .clicked: return "clicked"
        case .liftedWithoutClick: return "lifted_without_click"
        case .tooManyFingers: return "too_many_fingers"
        case .noRule: return "no_rule_for_fingers"
        case .movedTooFar: return "moved_too_far"
        case .heldTooLong: return "held_too_long"
        case .liftedEarly: return "lifted_early"
        case .liftedBeforeBegan: return "lifted_before_began"
        case .tooLong: return "too_long"
        case .liftedWithoutStroke: return "lifted_without_stroke"
        case .liftedTooSlow: return "lifted_too_slow"
        case .notStraight: return "not_straight"
        case .notFromEdge: return "not_from_edge"
        case .wrongWayFromEdge: return "wrong_way_from_edge"
        case .unknownSurface: return "unknown_surface"
        case .tapWithOtherFingers: return "tap_with_other_fingers"
        case .tapTooFar: return "tap_too_far"
        case .rolledFinger: return "rolled_finger"
        case .shapeTooSmall: return "shape_too_small"
        case .straightStroke: return "straight_stroke"
        case .flatStroke: return "flat_stroke"
        case .shapeUnmatched: return "shape_unmatched"
        case .shapeWithoutCorner: return "shape_without_corner"
        case .shapeStrays: return "shape_strays"
        case .shapeUnbound: return "shape_unbound"
        case .failedInLua: return "failed_in_lua"
        case .deadlineInLua: return "deadline_in_lua"
        case .luaError: return "lua_error"
        case .endlessDeadlines: return "endless_deadlines"
        case .lostTo: return "lost_to"
        case .sequenceEnded: return "sequence_ended"
        case .impossibleStep: return "impossible_step"
        }
    }
}

extension Measurement {
    /// `{"quantity":"speed","value":11.2,"limit":50,"unit":"mm/s","bound":"minimum","key":"swipe_min_speed"}`
    public func write(into w: inout JSONWriter) {
        w.raw("{\"quantity\":")
        w.string(quantity)
        w.raw(",\"value\":")
        // Four decimals: past them the figures are the sensor's noise, and float dust.
        w.number(value.isFinite && abs(value) < 1e12 ? (value * 10_000).rounded() / 10_000 : value)
        w.raw(",\"limit\":")
        w.number(limit)
        w.raw(",\"unit\":")
        w.string(unit)
        w.raw(",\"bound\":")
        w.string(bound.rawValue)
        if let key {
            w.raw(",\"key\":")
            w.string(key.rawValue)
        }
        w.raw("}")
    }
}
