import GestureCore

/// Realistic NDJSON for a sequence of gestures, the same bytes for the same seed.
///
/// The stream opens with a device header for a 256 × 144 mm panel at 16 units/mm,
/// samples at one rate between 60 and 240 Hz chosen by the seed, and leaves a
/// pause between gestures longer than any multi-tap interval.
public struct Synthesizer {
    public static let deviceName = "gesturemap synth panel"
    public static let resolution = 16.0
    public static let surface = Surface(width: 256, height: 144)

    public private(set) var rate: Double
    private var random: SeededRandom
    private var planner: GesturePlanner
    private var time = 0.0
    /// When the last gesture's last finger lifted.
    private var lastLift = 0.0
    private var nextID = 1
    private var mouse: MouseDrawing

    /// The templates `shape NAME` draws from; the built-in shapes unless set.
    public var shapes: [ShapeTemplate] {
        get { planner.shapes }
        set { planner.shapes = newValue }
    }

    public init(seed: UInt64, rate: Double? = nil) {
        var random = SeededRandom(seed: seed)
        self.rate = rate ?? random.uniform(60...240).rounded()
        planner = GesturePlanner(surface: Synthesizer.surface, random: SeededRandom(seed: random.next()))
        // Its own stream, taken from none of the touch planner's draws: a seed's touch bytes stay as they were.
        mouse = MouseDrawing(random: SeededRandom(seed: seed ^ 0x6D6F_7573_6520))
        self.random = random
        time = 0.1 + random.uniform(0...0.1)
        lastLift = time
    }

    /// The device header line.
    public func header() -> String {
        var json = JSONWriter()
        json.raw("{\"device\":{\"name\":")
        json.string(Synthesizer.deviceName)
        json.raw(",\"x\":{\"min\":0,\"max\":")
        json.integer(Int64(Synthesizer.surface.width * Synthesizer.resolution) - 1)
        json.raw(",\"resolution\":")
        json.number(Synthesizer.resolution)
        json.raw("},\"y\":{\"min\":0,\"max\":")
        json.integer(Int64(Synthesizer.surface.height * Synthesizer.resolution) - 1)
        json.raw(",\"resolution\":")
        json.number(Synthesizer.resolution)
        json.raw("}}}")
        return json.text
    }

    /// Appends one gesture's events, one JSON object per line, to `out`.
    public mutating func append(_ spec: GestureSpec, to out: inout JSONLines) {
        append(SynthGesture(spec: spec), to: &out)
    }

    /// Appends a placed gesture, its repeats included.
    public mutating func append(_ gesture: SynthGesture, to out: inout JSONLines) {
        for _ in 0..<gesture.repeats { appendOnce(gesture, to: &out) }
    }

    private mutating func appendOnce(_ gesture: SynthGesture, to out: inout JSONLines) {
        if gesture.spec.isMouse { return appendMouse(gesture, to: &out) }
        let tracks = planner.plan(gesture.spec, at: gesture.at)
        let period = 1 / rate
        // Gestures start on a frame boundary, as hardware reports them; a gap
        // given counts from the last lift, instead of the usual pause.
        let firstLanding = tracks.map(\.lands).min() ?? 0
        let earliest = gesture.gap.map { max(lastLift + $0 - firstLanding, lastLift) } ?? time
        let start = (earliest / period).rounded(.up) * period
        var ids: [Int] = []
        for _ in tracks {
            ids.append(nextID)
            nextID += 1
        }
        var down = Array(repeating: false, count: tracks.count)
        var done = Array(repeating: false, count: tracks.count)
        var last = Array(repeating: Vector.zero, count: tracks.count)
        let end = tracks.map { $0.lifts }.max() ?? 0
        // A click's button goes down 0.1 s after its last finger landed.
        var clickAt = gesture.spec.kind == .click ? (tracks.map(\.lands).max() ?? 0) + 0.1 : nil
        var frame = 0
        while true {
            let local = Double(frame) * period
            let t = start + local
            var remaining = false
            for (i, track) in tracks.enumerated() where !done[i] {
                remaining = true
                if !down[i] {
                    guard local >= track.lands else { continue }
                    down[i] = true
                    last[i] = sample(track, at: local)
                    out.event("down", t: t, id: ids[i], at: last[i])
                } else if local >= track.lifts {
                    done[i] = true
                    lastLift = max(lastLift, t)
                    out.event("up", t: t, id: ids[i], at: nil)
                } else {
                    let p = sample(track, at: local)
                    let units = { (v: Vector) in (Int((v.x * Synthesizer.resolution).rounded()), Int((v.y * Synthesizer.resolution).rounded())) }
                    if units(p) != units(last[i]) {
                        last[i] = p
                        out.event("move", t: t, id: ids[i], at: p)
                    }
                }
            }
            if let at = clickAt, local >= at {
                out.click(t: t)
                clickAt = nil
            }
            if !remaining || local > end + 1 { break }
            frame += 1
        }
        time = start + Double(frame) * period + random.uniform(0.6...0.9)
    }

    /// A mouse's stroke, shape, chord or button click, as NDJSON mouse lines.
    private mutating func appendMouse(_ gesture: SynthGesture, to out: inout JSONLines) {
        let spec = gesture.spec
        let button = spec.button ?? .right
        let steps: [(time: Double, step: MouseDrawing.Step)]
        switch spec.kind {
        case .chord:
            steps = mouse.chord(held: spec.button, press: spec.press, wheel: spec.wheel)
        case .click:
            steps = mouse.chord(held: nil, press: button, wheel: nil)
        case .shape:
            guard let track = planner.plan(GestureSpec(kind: .shape, name: spec.name)).first else { return }
            steps = mouse.steps(along: track, button: button)
        default:
            let arms = spec.arms ?? [Direction.cardinals[Int.random(in: 0..<4, using: &random)]]
            let track = mouse.stroke(arms)
            steps = mouse.steps(along: track, button: button)
        }
        let start = gesture.gap.map { max(lastLift + $0, lastLift) } ?? time
        for (t, step) in steps { out.mouse(step, t: start + t) }
        let end = start + (steps.last?.time ?? 0)
        lastLift = end
        time = end + random.uniform(0.6...0.9)
    }

    private mutating func sample(_ track: FingerTrack, at t: Double) -> Vector {
        let p = track.position(at: t) + Vector(random.jitter(track.noise), random.jitter(track.noise))
        return Vector(
            min(max(p.x, 0), Synthesizer.surface.width - 0.1),
            min(max(p.y, 0), Synthesizer.surface.height - 0.1))
    }
}

/// One gesture of a synth stream: what it is, where, after what pause, how often.
public struct SynthGesture: Sendable {
    public var spec: GestureSpec
    /// Where the hand's fingers land (their centroid), mm; nil: where the seed puts it.
    public var at: Vector?
    /// Seconds from the last lift before it to its first landing; nil: the usual 0.6–0.9 s.
    public var gap: Double?
    /// Made this many times in a row, each with the same place and gap.
    public var repeats: Int

    public init(spec: GestureSpec, at: Vector? = nil, gap: Double? = nil, repeats: Int = 1) {
        self.spec = spec
        self.at = at
        self.gap = gap
        self.repeats = repeats
    }
}

/// NDJSON text as it is built: events in device units at the synth panel's resolution.
public struct JSONLines {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func line(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        bytes.append(0x0A)
    }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func event(_ ev: StaticString, t: Double, id: Int, at p: Vector?) {
        event(ev, t: t, id: id, units: p.map { (Int(($0.x * Synthesizer.resolution).rounded()), Int(($0.y * Synthesizer.resolution).rounded())) })
    }

    /// The surface's button going down under the fingers (`"ev":"click"`).
    mutating func click(t: Double) {
        var json = JSONWriter()
        json.raw("{\"t\":")
        json.time(t)
        json.raw(",\"ev\":\"click\"}")
        bytes.append(contentsOf: json.bytes)
        bytes.append(0x0A)
    }

    /// An event at a position already in device units (a device of another resolution).
    mutating func event(_ ev: StaticString, t: Double, id: Int, units: (x: Int, y: Int)?) {
        var json = JSONWriter()
        json.raw("{\"t\":")
        json.time(t)
        json.raw(",\"ev\":\"")
        json.raw(ev)
        json.raw("\",\"id\":")
        json.integer(Int64(id))
        if let units {
            json.raw(",\"x\":")
            json.integer(Int64(units.x))
            json.raw(",\"y\":")
            json.integer(Int64(units.y))
        }
        json.byte(0x7D)
        bytes.append(contentsOf: json.bytes)
        bytes.append(0x0A)
    }
}
