import GestureCore

/// Single swipes of the kinds a recognizer decides late, one class
/// at a time, on a touchscreen or a touchpad: the slow tail `synth`'s ordinary
/// swipes rarely reach. Seeded: the same seed, class and profile give the same
/// bytes. Its own planner, not `GesturePlanner`'s, so that its timing (who
/// lands when, how the hand gets going) is stated here, in one place.
///
/// Each swipe is one touch sequence, 0.6–0.9 s after the last: its truth is in
/// the stream (its finger count is the most contacts down at once, its
/// direction the axis of their mean travel) and also fixed by its place: swipe
/// k goes `Direction.cardinals[k % 4]` with `fingerCounts[(k / 4) % n]` fingers.
public struct TailSwipes {
    public enum Kind: String, CaseIterable, Sendable {
        /// 1–4 fingers landing within 40 ms, already stroking: the baseline.
        case ordinary
        /// The hand rests or creeps 50–250 ms first, then eases into the stroke.
        case slowStart = "slow-start"
        /// 2–4 fingers, one landing 20–60 ms after the first, on a moving hand.
        case lateLanding = "late-landing"
        /// Three fingers: two land and move 2–6 mm before the third lands.
        case thirdFinger = "third-finger"
        /// 1–4 fingers thrown 12–28 mm at 150–400 mm/s, quickening, after a
        /// touchdown of 10–35 ms: 60–250 ms from landing to lift. On a touchpad
        /// each contact lands off by up to 2.5 mm and fades out before its lift,
        /// at the rates of real pads (60–180 Hz).
        case flick

        public var fingerCounts: [Int] {
            switch self {
            case .ordinary, .slowStart, .flick: return [1, 2, 3, 4]
            case .lateLanding: return [2, 3, 4]
            case .thirdFinger: return [3]
            }
        }
    }

    public enum Profile: String, CaseIterable, Sendable {
        /// The synth panel (256 × 144 mm, 1/16 mm units), 60–120 Hz, fine noise.
        case touchscreen
        /// A 100 × 65 mm pad at 60–90 Hz whose reports are coarse (0.25–0.5 mm
        /// steps), jittered in time, and now and then miss a contact's move.
        /// Flicks get more of a real pad: 60–180 Hz, landing reports off by up
        /// to 2.5 mm, contacts that fade out before they lift.
        case touchpad

        var surface: Surface {
            self == .touchpad ? Surface(width: 100, height: 65) : Synthesizer.surface
        }
        /// Device units per mm: a touchpad's coarse steps are whole units.
        var resolution: Double { self == .touchpad ? 4 : Synthesizer.resolution }
    }

    public let kind: Kind
    public let profile: Profile
    private var random: SeededRandom
    private var time: Double
    private var nextID = 1
    private var made = 0

    public init(kind: Kind, profile: Profile, seed: UInt64) {
        self.kind = kind
        self.profile = profile
        random = SeededRandom(seed: seed)
        time = 0.2
    }

    /// The device header line.
    public func header() -> String {
        let surface = profile.surface
        let resolution = profile.resolution
        var json = JSONWriter()
        json.raw("{\"device\":{\"name\":")
        json.string("gesturemap synth tail \(profile.rawValue)")
        json.raw(",\"x\":{\"min\":0,\"max\":")
        json.integer(Int64(surface.width * resolution) - 1)
        json.raw(",\"resolution\":")
        json.number(resolution)
        json.raw("},\"y\":{\"min\":0,\"max\":")
        json.integer(Int64(surface.height * resolution) - 1)
        json.raw(",\"resolution\":")
        json.number(resolution)
        json.raw("}}}")
        return json.text
    }

    /// Appends the next swipe's events to `out`.
    public mutating func append(to out: inout JSONLines) {
        let direction = Direction.cardinals[made % 4]
        let counts = kind.fingerCounts
        let fingers = counts[(made / 4) % counts.count]
        made += 1
        let plan = TailPlan.make(kind: kind, fingers: fingers, direction: direction, profile: profile, random: &random)
        emit(plan, to: &out)
    }

    private mutating func emit(_ plan: TailPlan, to out: inout JSONLines) {
        let touchpad = profile == .touchpad
        // The recorded touchpads report at 65 Hz (Cypress) to 182 Hz (Atmel);
        // the other classes keep the profile's first range, 60-90 Hz.
        let rate = touchpad ? random.uniform(kind == .flick ? 60...180 : 60...90) : random.uniform(60...120)
        let period = 1 / rate
        // Coarse pads report in steps of a few units; a touchscreen in every unit.
        let quantum = touchpad ? random.uniform(0.25...0.5) : 1 / profile.resolution
        let noise = touchpad ? random.uniform(0.1...0.3) : random.uniform(0.05...0.15)
        let ids = plan.fingers.indices.map { nextID + $0 }
        nextID += plan.fingers.count
        var down = Array(repeating: false, count: plan.fingers.count)
        var done = Array(repeating: false, count: plan.fingers.count)
        var last = Array(repeating: (0, 0), count: plan.fingers.count)
        let start = time
        var frame = 0
        var lastLift = start
        while done.contains(false) {
            let local = Double(frame) * period
            // A pad's reports arrive up to a fifth of a period early or late.
            let wobble = touchpad && frame > 0 ? random.uniform(-0.2...0.2) * period : 0
            // Times are in whole tenths of a millisecond, as a device's clock would give.
            let t = ((start + local + wobble) * 10000).rounded() / 10000
            for (i, finger) in plan.fingers.enumerated() where !done[i] {
                if !down[i] {
                    guard local >= finger.lands else { continue }
                    down[i] = true
                    last[i] = units(plan.position(of: i, at: local), quantum: quantum, noise: noise)
                    out.event("down", t: t, id: ids[i], units: last[i])
                } else if local >= finger.lifts {
                    done[i] = true
                    lastLift = t
                    out.event("up", t: t, id: ids[i], units: nil)
                } else if local >= finger.lifts - finger.fade {
                    // Fading out: too light a touch to be reported moving.
                    continue
                } else {
                    // A rough pad leaves a contact out of a report now and then.
                    if touchpad && random.chance(0.08) { continue }
                    let p = units(plan.position(of: i, at: local), quantum: quantum, noise: noise)
                    if p != last[i] {
                        last[i] = p
                        out.event("move", t: t, id: ids[i], units: p)
                    }
                }
            }
            frame += 1
        }
        time = lastLift + random.uniform(0.6...0.9)
    }

    /// A position in device units, with sensor noise, on the pad's grid and on the surface.
    private mutating func units(_ p: Vector, quantum: Double, noise: Double) -> (Int, Int) {
        let surface = profile.surface
        let r = profile.resolution
        func axis(_ v: Double, _ size: Double) -> Int {
            let stepped = (v / quantum).rounded() * quantum
            return Int((min(max(stepped, 0), size - 1 / r) * r).rounded())
        }
        let noisy = p + Vector(random.jitter(noise), random.jitter(noise))
        return (axis(noisy.x, surface.width), axis(noisy.y, surface.height))
    }
}
