/// One contact's history within the current touch sequence.
public struct TrackedTouch: Equatable, Sendable {
    public var id: Int
    public var start: Vector
    public var startTime: Double
    public var position: Vector
    public var isDown: Bool
    public var wasCancelled: Bool
    /// When it lifted (nil while down): a tap judges from the landing and lift
    /// order whether its fingers were one press or a roll (`TapRoll`).
    public var liftTime: Double? = nil
    /// The farthest this contact has been from where it landed, mm.
    public var maxExcursion: Double { maxExcursionSquared.squareRoot() }
    /// Squared, as it is kept: it grows at nearly every frame of a stroke, and
    /// a square root there was the tracker's costliest instruction.
    var maxExcursionSquared: Double
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
    /// Whether it has moved since its landing report, which on a touchpad may
    /// be a few mm off (see `StrokePath.touchdownRadius`).
    var hasMoved = false
    /// Resting beside the gesture: not one of its fingers (see docs/state-machine.md).
    public var isResting = false
    /// `start`, moved along by jumps that were no movement of its own (a
    /// bounding box's corners): `maxExcursion` counts from here.
    var excursionOrigin = Vector.zero
    /// Where it has stayed within `RestRule.stillRadius` of, and since when.
    var stillAnchor = Vector.zero
    var stillSince = 0.0

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
    /// A landing is held back until the next frame (`expectLanding`): the count
    /// may grow by one that is not in `touches` yet.
    public private(set) var landingHeld = false
    /// Some finger has lifted in this sequence, so its finger count can only fall.
    public private(set) var anyLifted = false
    public private(set) var anyCancelled = false
    /// A physical button went down while this sequence's fingers were down (a click).
    public private(set) var clicked = false
    /// Counts sequences, so recognizers can tell a new one from the same one.
    public private(set) var sequence = 0
    /// Contacts resting beside the sequence's fingers, not counted in `fingers`.
    public var resting: Int { restingTouches.count }
    /// Contacts down but resting: kept apart from `touches`, so that no
    /// measure of the hand's fingers sees them.
    public private(set) var restingTouches: [TrackedTouch] = []
    /// Where resting contacts lifted, lately: firmware that drops a still
    /// contact's id for a report or two lands it again on the same spot.
    private var restLifts: [(position: Vector, time: Double)] = []
    private var positionsAreCorners = false
    private var lastFrameWasBox = false
    /// Set by `rest(at:)` until the next update: the hand's contacts came to rest.
    public private(set) var handCameToRest = false
    /// Whether the last update landed, moved or lifted any of the hand's
    /// contacts: a frame of resting contacts alone, with no hand, is nothing
    /// to the recognizers.
    public private(set) var handInFrame = false
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
    /// a ring of 16, overwritten in place (one array, so one uniqueness check a frame).
    /// The centroid's recent positions, for its velocity.
    private var centroidHistory = RecentTravel()
    /// The stroke path's recent positions, for the stroke's recent speed.
    private var strokeHistory = RecentTravel()
    private var countChanged = false
    /// Angles about the centroid cost an atan2 per finger per frame; only a
    /// rotation recognizer needs them.
    public var tracksRotation = false
    /// The hand's path, for swipes to judge its shape; kept only when one is bound.
    public var tracksStroke = false
    public private(set) var strokePath = StrokePath()
    /// Whether the hand has left the spot where it landed (kept with the stroke).
    public private(set) var strokeOnset = StrokeOnset.landed(at: 0, from: .zero)
    /// How far the hand has travelled since the sequence began, mm: each frame
    /// adds how far the centroid of the fingers already down moved. A finger
    /// landing or lifting moves that centroid by no travel of the hand's, so a
    /// late finger neither adds a jump nor starts the count again.
    public private(set) var handTravel = Vector.zero

    public init() {}

    /// The finger count of the sequence: the most contacts down at once, or what the
    /// hardware reports when it tracks fewer contacts than fingers.
    public var fingers: Int { max(maxConcurrent, reportedFingers - restingTouches.count) }

    public var isActive: Bool { downCount > 0 }

    /// `measuring` false: the contacts are followed (where they are, which are
    /// down, how still), but the hand's shape and path are not measured, for a
    /// sequence every recognizer has already decided.
    public mutating func update(with frame: TouchFrame, measuring: Bool = true) {
        time = frame.time
        landingHeld = false
        surface = frame.surface
        device = frame.device
        // A bounding box's corners jump as fingers land and lift, and once more
        // when the box collapses onto the last finger: no contact moved by that.
        positionsAreCorners = frame.boundingBox || lastFrameWasBox
        lastFrameWasBox = frame.boundingBox
        let downBefore = downCount
        var frameMovement = Vector.zero
        // A contact's first move after its landing report: where it really landed.
        var landingSettled = false
        handCameToRest = false
        handInFrame = downCount > 0
        for touch in frame.touches {
            let i = indexOfDown(id: touch.id)
            switch touch.phase {
            case .began, .moved, .stationary:
                if let i {
                    // Under the path's vertex spacing, an offset changes no shape.
                    if !touches[i].hasMoved, touch.position.distance(to: touches[i].position) >= StrokePath.spacing {
                        landingSettled = true
                    }
                    frameMovement += move(i, to: touch.position)
                } else if let r = indexOfResting(id: touch.id) {
                    stir(r, to: touch.position)
                } else if landsWhereRestLifted(touch.position) {
                    restingTouches.append(newTouch(touch, at: frame.time, resting: true))
                } else {
                    land(newTouch(touch, at: frame.time, resting: false))
                    handInFrame = true
                }
            case .ended, .cancelled:
                if let i {
                    frameMovement += move(i, to: touch.position)
                    touches[i].isDown = false
                    touches[i].liftTime = time
                    touches[i].wasCancelled = touch.phase == .cancelled
                    downCount -= 1
                    countChanged = true
                    anyLifted = true
                    if touch.phase == .cancelled { anyCancelled = true }
                } else if let r = indexOfResting(id: touch.id) {
                    restLifts.append((restingTouches[r].position, time))
                    restingTouches.remove(at: r)
                }
            }
        }
        if frame.reportedFingers > reportedFingers, downCount > 0 { reportedFingers = frame.reportedFingers }
        if frame.clicked, downCount > 0 || downBefore > 0 { clicked = true }
        // A landing or a lift waits for the next measured frame: the geometry
        // then starts its segment afresh, as it would have here.
        guard measuring else { return }
        if downBefore > 0 { handTravel += frameMovement / Double(downBefore) }
        if tracksStroke {
            let n = max(downBefore, downCount)
            if n > 0 { strokePath.advance(by: frameMovement / Double(n)) }
            if landingSettled { strokePath.settleLanding() }
            strokeHistory.append(strokePath.position, at: time)
        }
        updateGeometry()
        // Once stroking, the onset stays: the recent speed (a walk back through
        // the history, every frame) is only needed before.
        if tracksStroke, !strokeOnset.isStroking {
            let motion = recentMotion
            let speed = motion.span >= StrokeOnset.minimumWindow ? motion.velocity.length : nil
            strokeOnset.advance(time: time, position: strokePath.position, speed: speed)
            // What a resting or creeping hand drew is no part of the stroke's shape:
            // a resting finger's noise, or a coarse pad's steps, would make a
            // straight stroke look wound.
            if case .creeping = strokeOnset { strokePath.restartShape() }
        }
    }

    // MARK: - Resting contacts

    /// Whether `frame` lands a finger beside contacts that have all been still
    /// long enough to count as resting: then the arena ends their sequence with
    /// `rest(at:)` before the frame starts the next one.
    public func restsBeforeLanding(_ frame: TouchFrame) -> Bool {
        guard downCount > 0 else { return false }
        var lands = false
        for touch in frame.touches where touch.phase == .began && indexOfDown(id: touch.id) == nil && indexOfResting(id: touch.id) == nil {
            lands = true
        }
        guard lands else { return false }
        for i in touches.indices where touches[i].isDown {
            var position = touches[i].position
            if let now = frame.touches.first(where: { $0.id == touches[i].id }) {
                guard now.phase.isActive else { return false }
                position = now.position
            }
            guard frame.time - touches[i].stillSince >= RestRule.stillFor,
                  position.distance(to: touches[i].stillAnchor) <= RestRule.stillRadius else { return false }
        }
        return true
    }

    /// The hand's contacts come to rest: they leave it, and the sequence is over.
    public mutating func rest(at time: Double) {
        self.time = time
        for t in touches where t.isDown {
            var resting = t
            resting.isResting = true
            resting.stillAnchor = t.position
            restingTouches.append(resting)
        }
        touches.removeAll(keepingCapacity: true)
        downCount = 0
        countChanged = true
        handCameToRest = true
        updateGeometry()
    }

    /// A resting contact moved: a little is still resting; more and it rejoins
    /// the hand as if it had just landed.
    private mutating func stir(_ r: Int, to position: Vector) {
        restingTouches[r].position = position
        // A semi-mt pad's corner jumping as another finger lands is no
        // finger waking: it rests where the corner now is.
        if positionsAreCorners {
            restingTouches[r].stillAnchor = position
            restingTouches[r].excursionOrigin = position
            return
        }
        guard position.distance(to: restingTouches[r].stillAnchor) > RestRule.wakeDistance else { return }
        var woken = restingTouches.remove(at: r)
        woken.isResting = false
        woken.stillAnchor = position
        woken.stillSince = time
        woken.lastChange = time
        land(woken)
        handInFrame = true
    }

    private func landsWhereRestLifted(_ position: Vector) -> Bool {
        for lift in restLifts where time - lift.time <= RestRule.relandWithin && lift.position.distance(to: position) <= RestRule.stillRadius {
            return true
        }
        return false
    }

    private func indexOfResting(id: Int) -> Int? {
        for i in restingTouches.indices where restingTouches[i].id == id { return i }
        return nil
    }

    private mutating func updateGeometry() {
        let c = centroid
        if countChanged {
            countChanged = false
            segmentStart = time
            segmentCentroidOrigin = c
            segmentExcursion = 0
            centroidHistory.removeAll()
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
            if tracksRotation {
                for i in touches.indices where touches[i].isDown {
                    let v = touches[i].position - c
                    let length = v.length
                    let a = v.degrees
                    // Angles are only meaningful away from the centroid.
                    if length > 1 { touches[i].turned += normalizedDegrees(a - touches[i].angle) }
                    touches[i].angle = a
                    turn += touches[i].turned
                    sum += length
                    n += 1
                }
            } else {
                // Read only: no uniqueness check of the touches.
                for i in touches.indices where touches[i].isDown {
                    sum += (touches[i].position - c).length
                    n += 1
                }
            }
            if n > 0 {
                spread = sum / Double(n)
                rotation = turn / Double(n)
            }
            let away = c.distance(to: segmentCentroidOrigin)
            if away > segmentExcursion { segmentExcursion = away }
        }
        centroidHistory.append(c, at: time)
    }

    /// Translation of the centroid since the segment began, mm.
    public var segmentTranslation: Vector { centroid - segmentCentroidOrigin }

    /// Centroid speed over the last 100 ms or so, mm/s, as a vector.
    public var recentVelocity: Vector { recentMotion.velocity }

    /// The centroid's velocity over the last 100 ms or so, and the time it
    /// spans: shorter just after a landing, when a frame's sensor noise could
    /// read as speed.
    // Inlined: a call from a mutating method would copy the whole tracker.
    var recentMotion: (velocity: Vector, span: Double) {
        @inline(__always) get { centroidHistory.motion(over: 0.1) }
    }

    /// The stroke's speed over its last `StrokeOnset.minimumWindow` or so,
    /// mm/s; nil until the stroke has been kept that long. A stroke that
    /// started slowly and then sped up is a swipe as surely as one that was
    /// fast throughout, and its mean speed since the onset lags behind.
    public var recentStrokeSpeed: Double? {
        let motion = strokeHistory.motion(over: StrokeOnset.minimumWindow)
        return motion.span >= StrokeOnset.minimumWindow ? motion.velocity.length : nil
    }

    /// Scale of the fingers' spread since the segment began (1 = unchanged).
    public var scale: Double { spreadOrigin > 0 ? spread / spreadOrigin : 1 }

    /// Fingers down now.
    public var downTouches: some Sequence<TrackedTouch> { touches.lazy.filter { $0.isDown } }

    /// The contact down with this id, if any.
    public func downTouch(id: Int) -> TrackedTouch? {
        indexOfDown(id: id).map { touches[$0] }
    }

    /// Where the contact down with this id is: a cheap look, no copy of its history.
    @inline(__always)
    func positionOfDown(id: Int) -> Vector? {
        for i in touches.indices where touches[i].id == id && touches[i].isDown { return touches[i].position }
        return nil
    }

    /// Counts a landing that is on its way (held back a frame to check its
    /// identity) for settling, so nothing commits on a count that may grow.
    mutating func expectLanding(at time: Double) {
        guard isActive else { return }
        landingHeld = true
        if time > lastLanding { lastLanding = time }
    }

    private func indexOfDown(id: Int) -> Int? {
        for i in touches.indices where touches[i].id == id && touches[i].isDown { return i }
        return nil
    }

    private func newTouch(_ touch: Touch, at time: Double, resting: Bool) -> TrackedTouch {
        TrackedTouch(
            id: touch.id, start: touch.position, startTime: time, position: touch.position,
            isDown: true, wasCancelled: false, maxExcursionSquared: 0,
            segmentOrigin: touch.position, angle: 0, turned: 0, lastChange: time,
            isResting: resting, excursionOrigin: touch.position, stillAnchor: touch.position, stillSince: time)
    }

    private mutating func land(_ touch: TrackedTouch) {
        if downCount == 0 {
            touches.removeAll(keepingCapacity: true)
            sequenceStart = time
            maxConcurrent = 0
            reportedFingers = 0
            anyLifted = false
            anyCancelled = false
            clicked = false
            sequence &+= 1
            strokePath.reset()
            strokeHistory.removeAll()
            strokeOnset = .landed(at: time, from: .zero)
            handTravel = .zero
            if !restLifts.isEmpty { restLifts.removeAll { time - $0.time > RestRule.relandWithin } }
        }
        touches.append(touch)
        downCount += 1
        countChanged = true
        lastLanding = time
        if downCount > maxConcurrent { maxConcurrent = downCount }
    }

    /// Moves contact `i`; returns how far it moved, as the hand's path counts it.
    // Inlined: called for every contact of every frame.
    @inline(__always)
    private mutating func move(_ i: Int, to position: Vector) -> Vector {
        let old = touches[i].position
        // One access to the record, in place: a write per field would check the
        // array's uniqueness each time.
        Self.move(&touches[i], to: position, at: time, corners: positionsAreCorners)
        return positionsAreCorners ? .zero : position - old
    }

    @inline(__always)
    private static func move(_ t: inout TrackedTouch, to position: Vector, at time: Double, corners: Bool) {
        let old = t.position
        if position != old {
            t.hasMoved = true
            t.step = position - old
            t.stepDuration = time - t.lastChange
            t.lastChange = time
        }
        t.position = position
        if position.distanceSquared(to: t.stillAnchor) > RestRule.stillRadius * RestRule.stillRadius {
            t.stillAnchor = position
            t.stillSince = time
        }
        // Where it would have been had the corners not jumped: excursion counts
        // only its own movement.
        if corners { t.excursionOrigin += position - old }
        let excursion = position.distanceSquared(to: t.excursionOrigin)
        if excursion > t.maxExcursionSquared { t.maxExcursionSquared = excursion }
    }

    /// Centroid of the contacts that are down (or of all, once none is).
    // Inlined: a call from a mutating method would copy the whole tracker.
    public var centroid: Vector {
        @inline(__always) get {
            var sum = Vector.zero
            var n = 0
            // By index: a contact's record is large, and a loop over values copies each.
            for i in touches.indices where touches[i].isDown { sum += touches[i].position; n += 1 }
            if n == 0 {
                for i in touches.indices { sum += touches[i].position; n += 1 }
            }
            return n == 0 ? .zero : sum / Double(n)
        }
    }

    /// Mean of every contact's travel since it landed: a late finger adds its own
    /// travel, not the jump of the centroid it would cause.
    public var meanDisplacement: Vector {
        guard !touches.isEmpty else { return .zero }
        var sum = Vector.zero
        for i in touches.indices { sum += touches[i].position - touches[i].start }
        return sum / Double(touches.count)
    }

    /// The largest excursion of any contact in the sequence, mm.
    public var maxExcursion: Double {
        var m = 0.0
        for i in touches.indices where touches[i].maxExcursionSquared > m { m = touches[i].maxExcursionSquared }
        return m.squareRoot()
    }

    public func normalized(_ point: Vector) -> Vector? {
        guard let surface, surface.width > 0, surface.height > 0 else { return nil }
        return Vector(point.x / surface.width, point.y / surface.height)
    }
}

/// When a contact rests beside the others rather than being one of their fingers.
/// docs/state-machine.md, "Resting contacts", gives the rule and its evidence.
extension TouchTracker {
    /// What a reset is given, which has no touches to show.
    static let noTouches = TouchTracker()
}
