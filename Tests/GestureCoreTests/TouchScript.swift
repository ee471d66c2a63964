import GestureCore

/// Builds touch frames directly, with a code path of its own (not synth's): fingers
/// with landing and lifting times and a path each, sampled at a chosen rate.
/// Time is driven by the frames; nothing here sleeps.
struct FingerPlan {
    var lands: Double
    var lifts: Double
    /// Position at time t (seconds from the gesture's start), mm.
    var at: (Double) -> Vector
}

struct XorShift {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D | 1 }
    mutating func next() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state % 1_000_000) / 1_000_000
    }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
}

enum TouchScript {
    /// Samples fingers into frames starting at `start`, every 1/rate s, with
    /// optional noise (mm) on every coordinate. IDs start at `firstID`.
    static func frames(_ fingers: [FingerPlan], rate: Double = 100, start: Double = 1.0, noise: Double = 0,
                       seed: UInt64 = 7, firstID: Int = 1, surface: Surface? = Surface(width: 250, height: 150)) -> [TouchFrame] {
        var random = XorShift(seed: seed)
        let end = fingers.map { $0.lifts }.max() ?? 0
        var frames: [TouchFrame] = []
        var state = Array(repeating: 0, count: fingers.count)  // 0 not landed, 1 down, 2 lifted
        var k = 0
        while true {
            let local = Double(k) / rate
            var touches: [Touch] = []
            for (i, f) in fingers.enumerated() {
                let p = f.at(local) + Vector(noise * (random.next() - 0.5) * 2, noise * (random.next() - 0.5) * 2)
                switch state[i] {
                case 0 where local >= f.lands:
                    state[i] = 1
                    touches.append(Touch(id: firstID + i, position: p, phase: .began))
                case 1 where local >= f.lifts:
                    state[i] = 2
                    touches.append(Touch(id: firstID + i, position: f.at(f.lifts), phase: .ended))
                case 1:
                    touches.append(Touch(id: firstID + i, position: p, phase: .moved))
                default:
                    break
                }
            }
            if !touches.isEmpty {
                frames.append(TouchFrame(time: start + local, touches: touches, surface: surface))
            }
            if state.allSatisfy({ $0 == 2 }) || local > end + 1 { break }
            k += 1
        }
        return frames
    }

    /// A straight (or bowed) stroke of `fingers` fingers side by side, at constant
    /// speed, every finger landing `stagger[i]` s late and lifting `liftAfter` s
    /// after the motion ends.
    static func stroke(
        fingers: Int, angle: Double, length: Double, duration: Double,
        centre: Vector = Vector(120, 75), spacing: Double = 16, stagger: [Double] = [],
        bow: Double = 0, liftAfter: Double = 0, holdBefore: Double = 0
    ) -> [FingerPlan] {
        let unit = Vector(cosDegrees(angle), sinDegrees(angle))
        let normal = Vector(-unit.y, unit.x)
        return (0..<fingers).map { i in
            let offset = normal * (spacing * (Double(i) - Double(fingers - 1) / 2))
            let from = centre - unit * (length / 2) + offset
            let lands = i < stagger.count ? stagger[i] : 0
            let moveEnd = holdBefore + duration
            return FingerPlan(lands: lands, lifts: moveEnd + liftAfter) { t in
                let u = min(max((t - holdBefore) / duration, 0), 1)
                return from + unit * (length * u) + normal * (bow * 4 * u * (1 - u))
            }
        }
    }

    static func still(fingers: Int, at centre: Vector = Vector(120, 75), duration: Double, spacing: Double = 16) -> [FingerPlan] {
        (0..<fingers).map { i in
            let p = centre + Vector(spacing * Double(i), 0)
            return FingerPlan(lands: 0, lifts: duration) { _ in p }
        }
    }

    /// Frames through the arena, with every deadline flushed at the end.
    static func recognize(_ frames: [TouchFrame], rules: [GestureRule], thresholds: Thresholds = Thresholds()) -> [Delivery] {
        var arena = GestureArena(rules: rules, thresholds: thresholds)
        var out: [Delivery] = []
        for frame in frames { arena.handle(frame, into: &out) }
        arena.finish(into: &out)
        return out
    }

    static func rules(_ phrases: String...) -> [GestureRule] {
        phrases.map { phrase in
            guard case .success(let spec) = PhraseParser.parse(phrase) else {
                preconditionFailure("test phrase does not parse: \(phrase)")
            }
            return GestureRule(spec: spec)
        }
    }
}

extension TouchScript {
    /// `fingers` fingers pressing for `press` seconds, barely moving.
    static func press(fingers: Int, duration: Double, at centre: Vector = Vector(120, 75), spacing: Double = 15, drift: Vector = .zero) -> [FingerPlan] {
        (0..<fingers).map { i in
            let p = centre + Vector(spacing * (Double(i) - Double(fingers - 1) / 2), 0)
            return FingerPlan(lands: 0.004 * Double(i), lifts: duration) { t in p + drift * min(t / duration, 1) }
        }
    }

    /// Fingers spaced around a centre, their distance going r0 → r1 and their
    /// angle turning by `turn` degrees (clockwise on screen) over `duration`.
    static func orbit(fingers: Int, centre: Vector = Vector(120, 75), radius: (Double, Double), turn: Double,
                      duration: Double, settle: Double = 0.12, start angle: Double = 10) -> [FingerPlan] {
        (0..<fingers).map { i in
            let a0 = angle + 360 * Double(i) / Double(fingers)
            return FingerPlan(lands: 0.01 * Double(i), lifts: settle + duration + 0.02) { t in
                let u = min(max((t - settle) / duration, 0), 1)
                let r = radius.0 + (radius.1 - radius.0) * u
                let a = a0 + turn * u
                return centre + Vector(cosDegrees(a), sinDegrees(a)) * r
            }
        }
    }

    /// Several gestures one after another, each starting `gap` seconds after the
    /// previous one's last frame, with fresh touch ids.
    static func sequence(_ gestures: [[FingerPlan]], gap: Double, rate: Double = 100, start: Double = 1) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        var t = start
        var id = 1
        for plan in gestures {
            let part = TouchScript.frames(plan, rate: rate, start: t, firstID: id)
            frames += part
            id += plan.count
            t = (part.last?.time ?? t) + gap
        }
        return frames
    }

    static func rule(_ phrase: String, name: String? = nil, allPhases: Bool = false,
                     simultaneousWith: [String] = [], requiresFailureOf: [String] = [], exclusive: Bool = false) -> GestureRule {
        guard case .success(let spec) = PhraseParser.parse(phrase) else { preconditionFailure("test phrase does not parse: \(phrase)") }
        return GestureRule(spec: spec, name: name, allPhases: allPhases, simultaneousWith: simultaneousWith,
                           requiresFailureOf: requiresFailureOf, exclusive: exclusive)
    }

    /// "kind fingers direction phase" for compact assertions.
    static func summary(_ d: Delivery) -> String {
        let e = d.event
        var s = "\(e.kind.rawValue) \(e.fingers)"
        if let dir = e.direction { s += " \(dir.rawValue)" }
        if e.kind == .tap { s += " x\(e.taps)" }
        if let edge = e.edge { s += " from \(edge.rawValue)" }
        return s + " \(e.phase.rawValue)"
    }
}
