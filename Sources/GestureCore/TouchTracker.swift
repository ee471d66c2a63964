/// One contact's history within the current touch sequence.
public struct TrackedTouch: Equatable, Sendable {
    public var id: Int
    public var start: Vector
    public var startTime: Double
    public var position: Vector
    public var isDown: Bool
    public var wasCancelled: Bool
    /// The farthest this contact has been from where it landed, mm.
    public var maxExcursion: Double
    /// Where it was when the finger count last changed: continuous gestures
    /// measure from here.
    public var segmentOrigin: Vector
    /// Its angle about the centroid last frame, and how far it has turned about
    /// the centroid since the segment began (degrees, clockwise on screen).
    var angle: Double
    public var turned: Double
    /// When its position last changed, and its last change: how it moves now.
    public var lastChange: Double
    var step = Vector.zero
    var stepDuration = 0.0
    /// Resting beside the gesture: not one of its fingers (see docs/state-machine.md).
    public var isResting = false

    public var displacement: Vector { position - start }

    /// Its velocity over its last change of position, mm/s.
    public var velocity: Vector { stepDuration > 0 ? step / stepDuration : .zero }
}

/// Derived data for the current touch sequence (first landing until every finger
/// is up), computed once per frame and read by every recognizer.
public struct TouchTracker: Sendable {
    public private(set) var touches: [TrackedTouch] = []
    public private(set) var time: Double = 0
    public private(set) var sequenceStart: Double = 0
    /// Time of the most recent landing; settling windows count from here.
    public private(set) var lastLanding: Double = 0
    public private(set) var downCount = 0
    public private(set) var maxConcurrent = 0
    public private(set) var reportedFingers = 0
    /// Some finger has lifted in this sequence, so its finger count can only fall.
    public private(set) var anyLifted = false
    public private(set) var anyCancelled = false
    /// Counts sequences, so recognizers can tell a new one from the same one.
    public private(set) var sequence = 0
    /// Contacts resting beside the sequence's fingers, not counted in `fingers`.
    public private(set) var resting = 0
    public private(set) var surface: Surface?
    public private(set) var device = 0

    // Geometry of the fingers that are down, computed once per frame for every
    // recognizer (Hammer.js computes its input data the same way).

    /// When the finger count last changed; continuous gestures start over here.
    public private(set) var segmentStart: Double = 0
    public private(set) var segmentCentroidOrigin = Vector.zero
    /// The farthest the centroid has been from where the segment began, mm: a
    /// pair of fingers that circles back still shows how far it went.
    public private(set) var segmentExcursion = 0.0
    /// Mean distance of the fingers to their centroid, now and at the segment's start.
    public private(set) var spread = 0.0
    public private(set) var spreadOrigin = 0.0
    /// Mean turn of the fingers about their centroid since the segment began,
    /// degrees, positive clockwise on screen.
    public private(set) var rotation = 0.0
    /// Recent centroid samples, for a velocity that reflects the last ~100 ms:
    /// a ring of 16, overwritten in place.
    private var historyTime = [Double](repeating: 0, count: TouchTracker.historySize)
    private var historyCentroid = [Vector](repeating: .zero, count: TouchTracker.historySize)
    private var historyEnd = 0
    private var historyCount = 0
    private static let historySize = 16
    private var countChanged = false
    /// Angles about the centroid cost an atan2 per finger per frame; only a
    /// rotation recognizer needs them.
    public var tracksRotation = false

    public init() {}

    /// The finger count of the sequence: the most contacts down at once, or what the
    /// hardware reports when it tracks fewer contacts than fingers.
    public var fingers: Int { max(maxConcurrent, reportedFingers) }

    public var isActive: Bool { downCount > 0 }

    public mutating func update(with frame: TouchFrame) {
        time = frame.time
        surface = frame.surface
        device = frame.device
        for touch in frame.touches {
            let i = indexOfDown(id: touch.id)
            switch touch.phase {
            case .began, .moved, .stationary:
                if let i {
                    move(i, to: touch.position)
                } else {
                    land(touch, at: frame.time)
                }
            case .ended, .cancelled:
                if let i {
                    move(i, to: touch.position)
                    touches[i].isDown = false
                    touches[i].wasCancelled = touch.phase == .cancelled
                    downCount -= 1
                    countChanged = true
                    anyLifted = true
                    if touch.phase == .cancelled { anyCancelled = true }
                }
            }
        }
        if frame.reportedFingers > reportedFingers, downCount > 0 { reportedFingers = frame.reportedFingers }
        updateGeometry()
    }

    private mutating func updateGeometry() {
        let c = centroid
        if countChanged {
            countChanged = false
            segmentStart = time
            segmentCentroidOrigin = c
            segmentExcursion = 0
            historyCount = 0
            var sum = 0.0
            var n = 0
            for i in touches.indices where touches[i].isDown {
                touches[i].segmentOrigin = touches[i].position
                touches[i].angle = tracksRotation ? (touches[i].position - c).degrees : 0
                touches[i].turned = 0
                sum += touches[i].position.distance(to: c)
                n += 1
            }
            spreadOrigin = n > 0 ? sum / Double(n) : 0
            spread = spreadOrigin
            rotation = 0
        } else {
            var sum = 0.0
            var turn = 0.0
            var n = 0
            for i in touches.indices where touches[i].isDown {
                let v = touches[i].position - c
                let length = v.length
                if tracksRotation {
                    let a = v.degrees
                    // Angles are only meaningful away from the centroid.
                    if length > 1 { touches[i].turned += normalizedDegrees(a - touches[i].angle) }
                    touches[i].angle = a
                    turn += touches[i].turned
                }
                sum += length
                n += 1
            }
            if n > 0 {
                spread = sum / Double(n)
                rotation = turn / Double(n)
            }
            let away = c.distance(to: segmentCentroidOrigin)
            if away > segmentExcursion { segmentExcursion = away }
        }
        historyTime[historyEnd] = time
        historyCentroid[historyEnd] = c
        historyEnd = (historyEnd + 1) % TouchTracker.historySize
        historyCount = min(historyCount + 1, TouchTracker.historySize)
    }

    /// Translation of the centroid since the segment began, mm.
    public var segmentTranslation: Vector { centroid - segmentCentroidOrigin }

    /// Centroid speed over the last 100 ms or so, mm/s, as a vector.
    public var recentVelocity: Vector {
        guard historyCount > 0 else { return .zero }
        let size = TouchTracker.historySize
        let last = (historyEnd + size - 1) % size
        var first = last
        for k in 0..<historyCount {
            first = (last + size - k) % size
            if historyTime[last] - historyTime[first] >= 0.1 { break }
        }
        let dt = historyTime[last] - historyTime[first]
        return dt > 0 ? (historyCentroid[last] - historyCentroid[first]) / dt : .zero
    }

    /// Scale of the fingers' spread since the segment began (1 = unchanged).
    public var scale: Double { spreadOrigin > 0 ? spread / spreadOrigin : 1 }

    /// Fingers down now.
    public var downTouches: some Sequence<TrackedTouch> { touches.lazy.filter { $0.isDown } }

    /// The contact down with this id, if any.
    public func downTouch(id: Int) -> TrackedTouch? {
        indexOfDown(id: id).map { touches[$0] }
    }

    /// Counts a landing that is on its way (held back a frame to check its
    /// identity) for settling, so nothing commits on a count that may grow.
    mutating func expectLanding(at time: Double) {
        if isActive && time > lastLanding { lastLanding = time }
    }

    private func indexOfDown(id: Int) -> Int? {
        for i in touches.indices where touches[i].id == id && touches[i].isDown { return i }
        return nil
    }

    private mutating func land(_ touch: Touch, at time: Double) {
        if downCount == 0 {
            touches.removeAll(keepingCapacity: true)
            sequenceStart = time
            maxConcurrent = 0
            reportedFingers = 0
            anyLifted = false
            anyCancelled = false
            sequence &+= 1
        }
        touches.append(TrackedTouch(
            id: touch.id, start: touch.position, startTime: time, position: touch.position,
            isDown: true, wasCancelled: false, maxExcursion: 0,
            segmentOrigin: touch.position, angle: 0, turned: 0, lastChange: time))
        downCount += 1
        countChanged = true
        lastLanding = time
        if downCount > maxConcurrent { maxConcurrent = downCount }
    }

    private mutating func move(_ i: Int, to position: Vector) {
        let old = touches[i].position
        if position != old {
            touches[i].step = position - old
            touches[i].stepDuration = time - touches[i].lastChange
            touches[i].lastChange = time
        }
        touches[i].position = position
        let excursion = position.distance(to: touches[i].start)
        if excursion > touches[i].maxExcursion { touches[i].maxExcursion = excursion }
    }

    /// Centroid of the contacts that are down (or of all, once none is).
    public var centroid: Vector {
        var sum = Vector.zero
        var n = 0
        for t in touches where t.isDown { sum += t.position; n += 1 }
        if n == 0 {
            for t in touches { sum += t.position; n += 1 }
        }
        return n == 0 ? .zero : sum / Double(n)
    }

    /// Mean of every contact's travel since it landed: a late finger adds its own
    /// travel, not the jump of the centroid it would cause.
    public var meanDisplacement: Vector {
        guard !touches.isEmpty else { return .zero }
        var sum = Vector.zero
        for t in touches { sum += t.displacement }
        return sum / Double(touches.count)
    }

    /// The largest excursion of any contact in the sequence, mm.
    public var maxExcursion: Double {
        var m = 0.0
        for t in touches where t.maxExcursion > m { m = t.maxExcursion }
        return m
    }

    public func normalized(_ point: Vector) -> Vector? {
        guard let surface, surface.width > 0, surface.height > 0 else { return nil }
        return Vector(point.x / surface.width, point.y / surface.height)
    }
}
