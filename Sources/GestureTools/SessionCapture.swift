import GestureCore
import GestureEngine

/// One finger's path through a touch sequence.
public struct CapturedPath: Sendable {
    public enum Ending: Sendable { case lifted, cancelled, stillDown }

    public var id: Int
    public private(set) var times: [Double] = []
    public private(set) var points: [Vector] = []
    public var ending = Ending.stillDown
    /// Once a path has grown long, only points whose place in the input is a
    /// multiple of `stride` are kept, and the latest point, until it is not
    /// the latest (`latestIsExtra`).
    private var stride = 1
    private var appended = 0
    private var latestIsExtra = false
    /// More points than a drawing can show: a finger held for a million frames
    /// keeps this many, evenly thinned, its first and latest among them.
    public static let mostPoints = 2048

    public init(id: Int) { self.id = id }

    public mutating func append(_ point: Vector, at time: Double) {
        let place = appended
        appended += 1
        if latestIsExtra {
            times[times.count - 1] = time
            points[points.count - 1] = point
        } else {
            times.append(time)
            points.append(point)
        }
        latestIsExtra = place % stride != 0
        guard points.count >= CapturedPath.mostPoints else { return }
        // Every other kept point goes, and half as many are kept from now on.
        let kept = latestIsExtra ? points.count - 1 : points.count
        let evens = Swift.stride(from: 0, to: kept, by: 2)
        times = evens.map { times[$0] }
        points = evens.map { points[$0] }
        stride *= 2
        latestIsExtra = place % stride != 0
        if latestIsExtra {
            times.append(time)
            points.append(point)
        }
    }
}

public struct CapturedGesture: Sendable {
    public var event: GestureEvent
    /// The rule's place in the rules (from 0).
    public var ruleIndex: Int
    public var rule: String
    public var definedAt: String
}

/// From the first finger down to the last finger up, on one device.
public struct CapturedSequence: Sendable {
    public var device: Int
    public var deviceName: String?
    public var surface: Surface?
    public var start: Double
    public var end: Double
    public var paths: [CapturedPath] = []
    public var gestures: [CapturedGesture] = []
    /// The most fingers down at once.
    public var mostFingers = 0
    /// What the arena decided, when the engine traces (explain).
    public var records: [TraceRecord] = []
}

/// Collects a run's touch sequences and delivered gestures.
public final class SessionCapture: EngineObserver {
    public private(set) var sequences: [CapturedSequence] = []
    /// The sequence under way on each device, by index into `sequences`.
    private var open: [Int: Int] = [:]
    private var lastOnDevice: [Int: Int] = [:]

    public init() {}

    public func engine(_ engine: Engine, sawFrame frame: TouchFrame) {
        guard !frame.touches.isEmpty else { return }
        let index: Int
        if let current = open[frame.device] {
            index = current
        } else {
            guard frame.touches.contains(where: { $0.phase.isActive }) else { return }
            sequences.append(CapturedSequence(device: frame.device, deviceName: engine.deviceName(frame.device),
                                              surface: frame.surface, start: frame.time, end: frame.time))
            index = sequences.count - 1
            open[frame.device] = index
            lastOnDevice[frame.device] = index
        }
        sequences[index].end = frame.time
        if sequences[index].surface == nil { sequences[index].surface = frame.surface }
        let down = frame.touches.reduce(0) { $0 + ($1.phase.isActive ? 1 : 0) }
        sequences[index].mostFingers = max(sequences[index].mostFingers, down)
        for touch in frame.touches {
            var p = sequences[index].paths.lastIndex { $0.id == touch.id && $0.ending == .stillDown }
            if p == nil {
                sequences[index].paths.append(CapturedPath(id: touch.id))
                p = sequences[index].paths.count - 1
            }
            guard let p else { continue }
            sequences[index].paths[p].append(touch.position, at: frame.time)
            if touch.phase == .ended { sequences[index].paths[p].ending = .lifted }
            if touch.phase == .cancelled { sequences[index].paths[p].ending = .cancelled }
        }
        if !frame.touches.contains(where: { $0.phase.isActive }) { open[frame.device] = nil }
    }

    public func engine(_ engine: Engine, delivered delivery: Delivery) {
        // Where it was made, not when it was reported: a tap judged as the
        // next press lands belongs to the sequence it was tapped in.
        guard let index = sequence(on: delivery.event.device, at: delivery.event.lastTouched) else { return }
        let rule = engine.describeRule(delivery.rule)
        sequences[index].gestures.append(CapturedGesture(event: delivery.event, ruleIndex: delivery.rule.index,
                                                         rule: rule?.label ?? delivery.rule.description,
                                                         definedAt: rule?.definedAt ?? ""))
    }

    public func engine(_ engine: Engine, traced record: TraceRecord) {
        // A running gesture's every frame (changed → changed) decides nothing:
        // kept, a long recording's records would grow with its length.
        if case .transition(let t) = record.entry, t.from == .changed, t.to == .changed { return }
        guard let index = sequence(on: record.device, at: place(of: record, engine: engine)) else { return }
        sequences[index].records.append(record)
    }

    /// The last transition that carried a gesture: the time it was traced, the
    /// recognizer's, and where that gesture was made.
    private var lastGesture: (time: Double, device: Int, kind: GestureKind, name: String?, place: Double)?
    /// Where each rule's held gestures were made, oldest first, by rule index:
    /// their release or drop comes later, often in another sequence.
    private var heldPlaces: [Int: [Double]] = [:]

    /// The time that places a record in its sequence: a gesture's `lastTouched`;
    /// for what the arena decided about that gesture at once (its rule held,
    /// dropped, beaten or cooling down, traced right after it), the same; for the
    /// release or drop of a held gesture, where that gesture was made.
    private func place(of record: TraceRecord, engine: Engine) -> Double {
        let atOnce = lastGesture.flatMap { $0.time == record.time && $0.device == record.device ? $0.place : nil }
        switch record.entry {
        case .transition(let t):
            if let e = t.event {
                lastGesture = (record.time, record.device, t.kind, t.name, e.lastTouched)
                return e.lastTouched
            }
            lastGesture = nil
            return record.time
        case .held(let rule, _):
            let place = atOnce ?? record.time
            heldPlaces[rule.index, default: []].append(place)
            return place
        case .released(let rule):
            return takeHeldPlace(rule.index) ?? record.time
        case .dropped(let rule, _):
            // Dropped as it was recognized (its own gesture just traced), or a held one dropped later.
            if let atOnce, let g = lastGesture, isOwnGesture(rule.index, kind: g.kind, name: g.name, engine: engine) { return atOnce }
            return takeHeldPlace(rule.index) ?? record.time
        case .lostSequence, .cooledDown:
            return atOnce ?? record.time
        default:
            return record.time
        }
    }

    /// Where the oldest gesture still held was made: the sequences from there
    /// on may still hear how it ended.
    public var oldestHeld: Double? {
        heldPlaces.values.compactMap(\.first).min()
    }

    private func takeHeldPlace(_ rule: Int) -> Double? {
        guard var places = heldPlaces[rule], !places.isEmpty else { return nil }
        let first = places.removeFirst()
        heldPlaces[rule] = places.isEmpty ? nil : places
        return first
    }

    /// Whether rule `index` binds the recognizer of kind `kind` (and Lua name `name`).
    private func isOwnGesture(_ index: Int, kind: GestureKind, name: String?, engine: Engine) -> Bool {
        let rules = engine.rules
        guard index >= 0, index < rules.count else { return false }
        let spec = rules[index].spec
        return spec.kind == kind && (kind != .custom || spec.name == name)
    }

    /// Lets go of the first `count` sequences (explain, once it has told them).
    public func release(first count: Int) {
        let n = min(max(0, count), sequences.count)
        guard n > 0 else { return }
        sequences.removeFirst(n)
        open = open.compactMapValues { $0 >= n ? $0 - n : nil }
        lastOnDevice = lastOnDevice.compactMapValues { $0 >= n ? $0 - n : nil }
    }

    /// A gesture belongs to the latest sequence on its device that began by its
    /// time: the one under way, or one over (a tap judged once its waiting time
    /// ran out, reported as the next sequence lands).
    private func sequence(on device: Int, at time: Double) -> Int? {
        guard var index = open[device] ?? lastOnDevice[device] else { return nil }
        while sequences[index].start > time {
            guard let earlier = sequences[..<index].lastIndex(where: { $0.device == device }) else { break }
            index = earlier
        }
        return index
    }
}
