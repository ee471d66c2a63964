/// Undoes touch firmware's identity mistakes before the tracker sees them, so
/// that a hand's fingers are counted as the hand made them.
///
/// Three mistakes are seen in real recordings (ChromeOS firmware_TouchMTB):
/// - **Hand-off**: a moving finger gets a new tracking id a little ahead of where
///   it was, and the old id lifts in the next report (`two_finger_id_change`,
///   `two_finger_fast_flick_id_split`).
/// - **Echo**: a fast finger gets a second id ahead of it, and the old id follows
///   one report behind, onto the new one's previous spot (`one_finger_fast_swipe_id_split`).
/// - **Teleport**: an id that has been still jumps, in one report, to where
///   another finger lands (`drumroll_lumpy`): one id for two fingers.
///
/// A landing within `joinRadius` of a contact already down is held back until
/// the next frame (at most `maxHold`), which tells the cases apart: the old
/// contact lifts (hand-off) or lands on the new one's spot (echo), and the two
/// are joined into one; otherwise the landing is released at its own time. A
/// teleport is split into a lift and a new landing. Ordinary input passes
/// through untouched.
struct ContactContinuity: Sendable {
    /// Fingers of one hand land 14–24 mm apart; the firmware's second ids land
    /// 8–15 mm ahead of the finger they copy.
    static let joinRadius = 20.0
    /// How close the old id must come to the new one's spot to be an echo, mm,
    /// after the new one landed at least `echoMinGap` away: two ids on one spot
    /// from the start are left alone (a pad that drops an unchanged axis makes
    /// those, as the Intuos5 double tap does).
    static let echoTolerance = 2.0
    static let echoMinGap = 4.0
    /// A hand-off needs the old contact moving toward the new one at least this fast, mm/s.
    static let handoffMinSpeed = 50.0
    /// ... within this angle of its motion (cosine of 45°).
    static let handoffMinCosine = 0.7071067811865476
    /// ... having travelled at least this far since it landed, mm: sensor
    /// noise on a still finger reads as 50 mm/s and more at 200 Hz, and a
    /// drumroll's finger lifting a frame after the next one lands beside it
    /// would be joined to it (a 1-finger swipe) by speed alone. A still
    /// finger's wobble and noise stay within about 1.3 mm (real taps on
    /// glass move under 0.8 mm); a finger whose id the firmware hands off is
    /// mid-stroke.
    static let handoffMinTravel = 2.0
    /// A held landing is released after this long without a deciding frame, s.
    static let maxHold = 0.035
    /// A jump this long in one report, after `teleportSilence` without any, is
    /// no finger's motion: a still finger reports its first small step at once.
    static let teleportDistance = 10.0
    static let teleportDistanceSquared = teleportDistance * teleportDistance
    static let teleportSilence = 0.05
    /// A last step this short shows the contact at rest before the jump, mm.
    static let restStep = 1.5
    /// After a teleport the firmware eases the new position in over a few
    /// reports (steps of 4, 2.5, 1.6, 1 mm in `drumroll_lumpy`): the new
    /// contact lands where that easing ends, or after this long at the latest, s.
    static let teleportSettle = 0.1

    /// A landing not yet shown to the tracker.
    private struct HeldLanding: Sendable {
        var touch: Touch
        /// The frame it came in, without its touches.
        var frame: TouchFrame
        var time: Double { frame.time }
        /// The contact it may continue (tracker id), where it was, and how it moved.
        var near: Int
        var nearPosition: Vector
        var nearVelocity: Vector
        var nearTravel: Double
    }

    private var held: [HeldLanding] = []
    /// Contacts split off by a teleport whose position the firmware is still easing in.
    private struct Settling: Sendable {
        var id: Int
        var position: Vector
        var lastStep: Double
        var frame: TouchFrame
        var since: Double
    }
    private var settling: [Settling] = []
    /// Incoming id → the id the tracker knows the contact by.
    private var renamed: [(from: Int, to: Int)] = []
    /// Incoming ids whose events are dropped: contacts found to echo another.
    private var silenced: [Int] = []
    /// Ids for contacts split off by a teleport, far from any decoder's.
    private var nextFreshID = Int.min / 2
    private(set) var repairs: [ContinuityRepair] = []
    var tracing = false

    /// When a held landing must be released even if no frame comes.
    /// Nothing held, renamed, silenced or settling: a frame with no landing and
    /// no silence before it passes through.
    var isIdle: Bool { held.isEmpty && renamed.isEmpty && silenced.isEmpty && settling.isEmpty }

    /// Stored, not computed: the arena asks every frame.
    private(set) var deadline: Double?

    private mutating func refreshDeadline() {
        let hold = held.first.map { $0.time + ContactContinuity.maxHold }
        let settle = settling.first.map { $0.since + ContactContinuity.teleportSettle }
        if let settle {
            deadline = hold.map { min($0, settle) } ?? settle
        } else {
            deadline = hold
        }
    }

    /// The time of the earliest landing held back, which the tracker counts as a
    /// landing for settling: nothing commits on a finger count that may grow.
    var pendingLanding: Double? { held.first?.time }

    mutating func clearRepairs() { repairs.removeAll(keepingCapacity: true) }

    /// False when `frame` needs nothing (the usual case); otherwise the frames
    /// the tracker should see instead, in order, go to `out`.
    mutating func process(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [TouchFrame]) -> Bool {
        if held.isEmpty && renamed.isEmpty && silenced.isEmpty && settling.isEmpty && !needsRepair(frame, tracker: tracker) {
            return false
        }
        var current = frame
        current.touches.removeAll(keepingCapacity: true)
        for touch in frame.touches {
            if let kept = relabel(touch) { current.touches.append(kept) }
        }
        if !held.isEmpty { decideHeld(against: &current, into: &out) }
        if !settling.isEmpty { settle(&current, into: &out) }
        splitTeleports(&current, tracker: tracker)
        holdLandings(&current, tracker: tracker)
        splitEmptyingLifts(current, tracker: tracker, into: &out)
        refreshDeadline()
        return true
    }

    /// Releases every held landing whose wait has run out by `time`.
    mutating func release(upTo time: Double, into out: inout [TouchFrame]) {
        while let first = held.first, first.time + ContactContinuity.maxHold <= time {
            held.removeFirst()
            note(.released(id: first.touch.id))
            var landing = first.frame
            landing.touches = [first.touch]
            out.append(landing)
        }
        while let first = settling.first, first.since + ContactContinuity.teleportSettle <= time {
            settling.removeFirst()
            var landing = first.frame
            landing.time = first.since + ContactContinuity.teleportSettle
            landing.touches = [Touch(id: first.id, position: first.position, phase: .began)]
            out.append(landing)
        }
        refreshDeadline()
    }

    /// Contacts split off by a teleport land once the firmware stops easing them in.
    private mutating func settle(_ frame: inout TouchFrame, into out: inout [TouchFrame]) {
        var k = 0
        while k < settling.count {
            let s = settling[k]
            guard let i = frame.touches.firstIndex(where: { $0.id == s.id }) else {
                k += 1
                continue
            }
            let touch = frame.touches[i]
            let step = touch.position.distance(to: s.position)
            if touch.phase == .moved && step < s.lastStep && frame.time - s.since < ContactContinuity.teleportSettle {
                settling[k].position = touch.position
                settling[k].lastStep = step
                frame.touches.remove(at: i)
                k += 1
                continue
            }
            settling.remove(at: k)
            var landing = frame
            landing.touches = [Touch(id: s.id, position: touch.phase.isActive ? touch.position : s.position, phase: .began)]
            if touch.phase.isActive {
                frame.touches[i].phase = .began
                frame.touches.remove(at: i)
                out.append(landing)
            } else {
                // Lifted while easing in: it landed where the easing got to.
                out.append(landing)
                frame.touches[i].position = s.position
            }
        }
    }

    // MARK: - Steps

    /// Whether the frame holds a landing near a contact down, or a teleport.
    private func needsRepair(_ frame: TouchFrame, tracker: TouchTracker) -> Bool {
        guard tracker.downCount > 0 else { return false }
        var lifts = 0
        var landings = 0
        for touch in frame.touches {
            switch touch.phase {
            case .began:
                landings += 1
                if nearestDown(to: touch.position, in: frame, tracker: tracker, liftingToo: true) != nil { return true }
            case .moved:
                // The distance first: it costs no copy of the tracked contact.
                if let old = tracker.positionOfDown(id: touch.id), touch.position.distanceSquared(to: old) >= Self.teleportDistanceSquared,
                   isTeleport(touch, at: frame.time, tracker: tracker) && !Self.landsOrLifts(frame) { return true }
            case .ended, .cancelled:
                lifts += 1
            case .stationary:
                break
            }
        }
        return landings > 0 && lifts >= tracker.downCount
    }

    /// Applies renames and silences to one incoming touch.
    private mutating func relabel(_ touch: Touch) -> Touch? {
        let lifts = touch.phase == .ended || touch.phase == .cancelled
        if let k = silenced.firstIndex(of: touch.id) {
            if lifts {
                silenced.remove(at: k)
                renamed.removeAll { $0.from == touch.id }
            }
            return nil
        }
        guard let k = renamed.firstIndex(where: { $0.from == touch.id }) else { return touch }
        var out = touch
        out.id = renamed[k].to
        if out.phase == .began || out.phase == .stationary { out.phase = .moved }
        if lifts { renamed.remove(at: k) }
        return out
    }

    /// The frame after a held landing decides what it was.
    private mutating func decideHeld(against frame: inout TouchFrame, into out: inout [TouchFrame]) {
        let pending = held
        held.removeAll(keepingCapacity: true)
        for h in pending {
            let newID = h.touch.id
            let old = frame.touches.firstIndex { $0.id == h.near }
            let new = frame.touches.firstIndex { $0.id == newID }
            let newGoesOn = new.map { frame.touches[$0].phase.isActive } ?? true
            var joined = false
            if let old, newGoesOn {
                let o = frame.touches[old]
                let lifted = o.phase == .ended || o.phase == .cancelled
                if lifted && isHandoff(h) {
                    note(.handoff(from: h.near, to: newID))
                    frame.touches.remove(at: old)
                    joined = true
                } else if o.phase == .moved && o.position.distance(to: h.touch.position) <= ContactContinuity.echoTolerance
                            && h.nearPosition.distance(to: h.touch.position) >= ContactContinuity.echoMinGap {
                    note(.echo(of: newID, by: h.near))
                    frame.touches.remove(at: old)
                    silenced.append(incomingID(of: h.near))
                    joined = true
                }
            }
            var first = h.frame
            if joined {
                // The finger moved to where the new id landed, then goes on as the old id.
                first.touches = [Touch(id: h.near, position: h.touch.position, phase: .moved)]
                renamed.append((from: newID, to: h.near))
                if let k = frame.touches.firstIndex(where: { $0.id == newID }) {
                    frame.touches[k].id = h.near
                    if frame.touches[k].phase == .stationary { frame.touches[k].phase = .moved }
                }
            } else {
                note(.released(id: newID))
                first.touches = [h.touch]
            }
            out.append(first)
        }
    }

    private func isHandoff(_ h: HeldLanding) -> Bool {
        let v = h.nearVelocity
        let speed = v.length
        guard speed >= ContactContinuity.handoffMinSpeed, h.nearTravel >= ContactContinuity.handoffMinTravel else { return false }
        let ahead = h.touch.position - h.nearPosition
        let distance = ahead.length
        return distance > 0 && ahead.dot(v) >= ContactContinuity.handoffMinCosine * distance * speed
    }

    private mutating func splitTeleports(_ frame: inout TouchFrame, tracker: TouchTracker) {
        guard !Self.landsOrLifts(frame) else { return }
        var k = 0
        while k < frame.touches.count {
            let touch = frame.touches[k]
            guard touch.phase == .moved, isTeleport(touch, at: frame.time, tracker: tracker),
                  let old = tracker.downTouch(id: touch.id) else {
                k += 1
                continue
            }
            let fresh = nextFreshID
            nextFreshID += 1
            note(.teleport(id: touch.id, distance: touch.position.distance(to: old.position)))
            frame.touches[k] = Touch(id: touch.id, position: old.position, phase: .ended)
            var skeleton = frame
            skeleton.touches = []
            settling.append(Settling(id: fresh, position: touch.position, lastStep: touch.position.distance(to: old.position), frame: skeleton, since: frame.time))
            let incoming = incomingID(of: touch.id)
            if let r = renamed.firstIndex(where: { $0.from == incoming }) {
                renamed[r].to = fresh
            } else {
                renamed.append((from: incoming, to: fresh))
            }
            k += 1
        }
    }

    /// A contact that jumps as another lands or lifts is a pad reporting the
    /// corners of the fingers' bounding box (semi-mt), not a teleport.
    private static func landsOrLifts(_ frame: TouchFrame) -> Bool {
        frame.touches.contains { $0.phase != .moved && $0.phase != .stationary }
    }

    /// A contact seen resting (its last report a small step) that, after a
    /// silence of the whole device, jumps farther than a finger moves in one
    /// report from rest (the arena only asks after such a silence). One
    /// that has not moved since it landed gives no such evidence: sparse input
    /// (a hand-written stroke at 20 Hz) jumps like that too.
    private func isTeleport(_ touch: Touch, at time: Double, tracker: TouchTracker) -> Bool {
        guard let old = tracker.downTouch(id: touch.id), time - old.lastChange >= ContactContinuity.teleportSilence,
              old.stepDuration > 0, old.step.length <= ContactContinuity.restStep else { return false }
        let d = touch.position - old.position
        let limit = ContactContinuity.teleportDistance
        return d.x * d.x + d.y * d.y >= limit * limit
    }

    /// Holds back the frame's landings that may continue a contact already down;
    /// a landing beside a moving contact that lifts in the same frame continues it at once.
    private mutating func holdLandings(_ frame: inout TouchFrame, tracker: TouchTracker) {
        guard tracker.downCount > 0 else { return }
        var k = 0
        while k < frame.touches.count {
            let touch = frame.touches[k]
            guard touch.phase == .began, let near = nearestDown(to: touch.position, in: frame, tracker: tracker, liftingToo: true) else {
                k += 1
                continue
            }
            var skeleton = frame
            skeleton.touches = []
            let landing = HeldLanding(touch: touch, frame: skeleton, near: near.id, nearPosition: near.position, nearVelocity: near.velocity,
                                      nearTravel: near.travel)
            if near.lifts {
                guard isHandoff(landing), let old = frame.touches.firstIndex(where: { $0.id == near.id }) else {
                    k += 1
                    continue
                }
                note(.handoff(from: near.id, to: touch.id))
                renamed.append((from: touch.id, to: near.id))
                frame.touches[k] = Touch(id: near.id, position: touch.position, phase: .moved)
                frame.touches.remove(at: old)
                if old < k { k -= 1 }
                k += 1
                continue
            }
            held.append(landing)
            note(.heldLanding(id: touch.id))
            frame.touches.remove(at: k)
        }
    }

    /// A frame whose lifts end the sequence and whose landings start another is
    /// two frames: recognizers must see the first sequence end.
    private func splitEmptyingLifts(_ frame: TouchFrame, tracker: TouchTracker, into out: inout [TouchFrame]) {
        var lifts = 0
        var landings = 0
        for touch in frame.touches {
            if touch.phase == .began { landings += 1 } else if !touch.phase.isActive { lifts += 1 }
        }
        guard landings > 0, lifts > 0, lifts >= tracker.downCount else {
            if !frame.touches.isEmpty { out.append(frame) }
            return
        }
        var ending = frame
        ending.touches = frame.touches.filter { !$0.phase.isActive }
        var starting = frame
        starting.touches = frame.touches.filter { $0.phase.isActive }
        out.append(ending)
        out.append(starting)
    }

    /// A contact down before this frame and still down in it, within `joinRadius`
    /// of `point`, as it is in this frame: where it is and how fast it moves.
    private func nearestDown(to point: Vector, in frame: TouchFrame, tracker: TouchTracker, liftingToo: Bool = false)
        -> (id: Int, position: Vector, velocity: Vector, lifts: Bool, travel: Double)? {
        var best: (id: Int, position: Vector, velocity: Vector, lifts: Bool, travel: Double)?
        var bestDistance = ContactContinuity.joinRadius
        for t in tracker.touches where t.isDown && !t.isResting {
            var position = t.position
            var velocity = t.velocity
            var lifts = false
            if let now = frame.touches.first(where: { $0.id == t.id }) {
                lifts = !now.phase.isActive
                if lifts && !liftingToo { continue }
                let dt = frame.time - t.lastChange
                if now.position != t.position && dt > 0 {
                    velocity = (now.position - t.position) / dt
                }
                position = now.position
            }
            let d = position.distance(to: point)
            if d <= bestDistance {
                best = (t.id, position, velocity, lifts, max(t.maxExcursion, position.distance(to: t.start)))
                bestDistance = d
            }
        }
        return best
    }

    /// The decoder's id for a contact the tracker knows as `id`.
    private func incomingID(of id: Int) -> Int {
        renamed.first { $0.to == id }?.from ?? id
    }

    private mutating func note(_ repair: ContinuityRepair) {
        if tracing { repairs.append(repair) }
    }
}
