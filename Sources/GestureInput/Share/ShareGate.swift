/// What reaches the desktop through a shared device's clone: every packet of
/// the device's, except the touch sequences gesturemap claims. Events in,
/// events for the clone out; no I/O.
///
/// A sequence runs from the first finger down to the last one up. It is
/// forwarded, or held while it may still become a claimed one, or withheld
/// (claimed: the desktop sees nothing of it). The clone is written from a model
/// of what it has, so that whatever was withheld, it is left consistent: every
/// contact it was told of ends (tracking id -1, its keys up), and a contact it
/// is told of later arrives with the device's values for it.
public struct ShareGate: Sendable {
    public struct Settings: Sendable, Equatable {
        /// `claim_fingers`: a sequence that reaches this many fingers is gesturemap's.
        public var claimFingers: Int?
        /// Finger counts of claimed rules: a sequence with one of them waits for
        /// the recognizers (`claim()` or `release()`).
        public var pendingFingers: Set<Int>
        /// How long a landing is held while more fingers may come (seconds).
        public var holdBack: Double
        /// How long after its landing a sequence waits for a claimed rule that
        /// has not fired (seconds): then it is the desktop's, live from then on.
        public var claimWait: Double
        /// Motion (device units, each axis) that shows a landing is a pointer's, not a gesture's.
        public var releaseDistance: (x: Int32, y: Int32)
        /// Fingers that, held still together this long, end the sharing.
        public var escapeFingers: Int
        public var escapeAfter: Double

        public init(claimFingers: Int? = nil, pendingFingers: Set<Int> = [], holdBack: Double = ShareGate.defaultHoldBack,
                    claimWait: Double = ShareGate.defaultClaimWait,
                    releaseDistance: (x: Int32, y: Int32) = (16, 16), escapeFingers: Int = 5, escapeAfter: Double = 3) {
            self.claimFingers = claimFingers
            self.pendingFingers = pendingFingers
            self.holdBack = holdBack
            self.claimWait = claimWait
            self.releaseDistance = releaseDistance
            self.escapeFingers = escapeFingers
            self.escapeAfter = escapeAfter
        }

        /// Without claims nothing is ever held: the desktop gets every packet as it comes.
        public var claims: Bool { claimFingers != nil || !pendingFingers.isEmpty }

        public static func == (a: Settings, b: Settings) -> Bool {
            a.claimFingers == b.claimFingers && a.pendingFingers == b.pendingFingers && a.holdBack == b.holdBack && a.claimWait == b.claimWait
                && a.releaseDistance == b.releaseDistance && a.escapeFingers == b.escapeFingers && a.escapeAfter == b.escapeAfter
        }
    }

    /// 150 ms: a hand's fingers land within 111 ms in the real recordings
    /// (docs/defaults.md); a moving finger ends the hold sooner.
    public static let defaultHoldBack = 0.150
    /// 400 ms from the landing: a claimed swipe is recognized at its evidence
    /// point, within 0.2 s of the landing for the strokes of scripts/bench-evidence;
    /// a pan or a slow stroke that no claim has taken by then is the desktop's,
    /// which follows it from then on (a desktop that tracks three fingers 1:1
    /// loses the first 0.4 s of it, not all of it).
    public static let defaultClaimWait = 0.4
    /// Packets a pending sequence keeps for the clone (about 4 s at 120 Hz);
    /// past them the sequence goes to the clone from then on.
    public static let maxPendingPackets = 512

    /// Where the current sequence stands.
    public enum Phase: Equatable, Sendable {
        /// No finger down.
        case idle
        /// Fingers landed at `since`; held from the clone until `until`, or
        /// until motion from `origin` shows a pointer, or the count shows a claim.
        /// `packets` are what a sequence that ends while held still owes the clone.
        /// `released`: the recognizers already said no claimed rule can take it
        /// (an edge swipe's finger landing away from the edge), so the hold's
        /// end forwards it rather than waiting for them.
        case holding(since: Double, until: Double, origin: [Int: Position], packets: [HeldPacket], released: Bool)
        /// Held past its landing: its count is a claimed rule's, and the
        /// recognizers decide, until `until`. `packets` are what a sequence that
        /// ends undecided still owes the clone (a 3-finger tap no rule claimed).
        case pending(packets: [HeldPacket], until: Double)
        /// The clone gets the sequence as it comes.
        case forwarding
        /// gesturemap's: nothing of it reaches the clone until every finger is up.
        case withholding
    }

    /// A packet held at landing: the device's state after it, and its events
    /// that are no state (MSC_TIMESTAMP), to write with it.
    public struct HeldPacket: Equatable, Sendable {
        var after: EvdevState
        var passing: [EvdevEvent]
    }

    public struct Position: Equatable, Sendable {
        public var x: Int32
        public var y: Int32
    }

    /// What the caller does besides writing the events.
    public enum Signal: Equatable, Sendable {
        /// A sequence became gesturemap's.
        case claimed(fingers: Int)
        /// The escape was held: stop sharing, let the device go.
        case escape
    }

    public private(set) var settings: Settings
    public private(set) var phase: Phase = .idle
    private var device = EvdevState()
    private var clone = EvdevState()
    /// Since when `escapeFingers` or more are down and still, and where they were then.
    private var crowd: (since: Double, origin: [Int: Position])?
    private var packets = EvdevPackets()

    /// `state`: the device's state when sharing begins (`InputDevice.currentState()`),
    /// so that the first packet the clone gets brings all of it. Fingers down
    /// then stay gesturemap's until they lift: the desktop saw none of them land.
    public init(settings: Settings, state: [EvdevEvent] = []) {
        self.settings = settings
        for e in state { device.apply(e) }
        if device.fingers > 0 { phase = .withholding }
    }

    /// Fingers down on the device now.
    public var fingers: Int { device.fingers }

    /// A rules reload: new claims, the clone and the sequence kept.
    public mutating func update(_ settings: Settings) {
        self.settings = settings
    }

    /// The next moment `expire(at:)` has work: a hold's end or the escape's.
    public var deadline: Double? {
        var next: Double?
        if case .holding(_, let until, _, _, _) = phase { next = until }
        if case .pending(_, let until) = phase { next = until }
        if let since = crowd?.since { next = min(next ?? .infinity, since + settings.escapeAfter) }
        return next
    }

    /// One event of the device's: the events the clone is to get now (whole
    /// packets, each ending in SYN_REPORT) and what else happened.
    public mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent]) -> Signal? {
        guard let events = packets.add(event) else { return nil }
        return report(events, at: event.time, into: &out)
    }

    /// Time passed with no event: a hold ends, or the escape was held long enough.
    public mutating func expire(at now: Double, into out: inout [EvdevEvent]) -> Signal? {
        if let since = crowd?.since, now >= since + settings.escapeAfter { return escape(into: &out) }
        if case .holding(let since, let until, _, let packets, let released) = phase, now >= until {
            open(keeping: packets, since: since, released: released, into: &out)
        }
        // A claim that has not fired by now gives the sequence back.
        if case .pending(_, let until) = phase, now >= until { forwardFromNow(into: &out) }
        return nil
    }

    /// A claimed rule recognized this sequence: whatever the clone had of it ends.
    public mutating func claim(into out: inout [EvdevEvent]) -> Signal? {
        switch phase {
        case .idle, .withholding:
            return nil
        case .holding, .pending, .forwarding:
            endClone(into: &out)
            phase = .withholding
            return .claimed(fingers: device.fingers)
        }
    }

    /// The recognizers decided the sequence is none of the claimed ones: a
    /// pending one goes to the clone from now, from the device's state; one
    /// still held at its landing goes when the hold ends, without waiting.
    public mutating func release(into out: inout [EvdevEvent]) {
        switch phase {
        case .pending:
            forwardFromNow(into: &out)
        case let .holding(since, until, origin, packets, _):
            phase = .holding(since: since, until: until, origin: origin, packets: packets, released: true)
        case .idle, .forwarding, .withholding:
            return
        }
    }

    /// Sharing stops: the clone is left with nothing down.
    public mutating func stop(into out: inout [EvdevEvent]) {
        endClone(into: &out)
        phase = device.fingers > 0 ? .withholding : .idle
        crowd = nil
    }

    // MARK: Packets

    private mutating func report(_ events: [EvdevEvent], at time: Double, into out: inout [EvdevEvent]) -> Signal? {
        let before = device.fingers
        for e in events { device.apply(e) }
        let now = device.fingers
        noteCrowd(now, at: time)
        if let since = crowd?.since, time >= since + settings.escapeAfter { return escape(into: &out) }
        if case .forwarding = phase, now > 0, !(settings.claimFingers.map { now >= $0 && now > before } ?? false) {
            // In step with the device: its packet as it came, the common case.
            pass(events, at: time, into: &out)
            return nil
        }
        let held = HeldPacket(after: device, passing: events.filter { $0.type != EV.abs && $0.type != EV.key })

        switch phase {
        case .idle:
            guard now > 0 else {
                // Buttons and axes with no finger down pass as they are.
                write(held, at: time, into: &out)
                return nil
            }
            guard settings.claims else {
                phase = .forwarding
                write(held, at: time, into: &out)
                return nil
            }
            if let claimed = claimedAtOnce(now) { return claimed }
            phase = .holding(since: time, until: time + settings.holdBack, origin: device.positions, packets: [held], released: false)
            return nil
        case .holding(let since, let until, let origin, var packets, let released):
            if let claimed = claimedAtOnce(now) { return claimed }
            if now == 0 {
                // A touch shorter than the hold (a quick tap).
                endWhole(packets + [held], at: time, into: &out)
                return nil
            }
            packets.append(held)
            phase = .holding(since: since, until: until, origin: origin, packets: packets, released: released)
            if time >= until || moved(from: origin) { open(keeping: packets, since: since, released: released, into: &out) }
            return nil
        case .pending(var packets, let wait):
            if let claimed = claimedAtOnce(now) { return claimed }
            if now == 0 {
                // Ended with no claimed rule recognized.
                endWhole(packets + [held], at: time, into: &out)
                return nil
            }
            packets.append(held)
            if packets.count >= Self.maxPendingPackets || time >= wait {
                forwardFromNow(into: &out)
            } else {
                phase = .pending(packets: packets, until: wait)
            }
            return nil
        case .forwarding:
            if let limit = settings.claimFingers, now >= limit, now > before {
                endClone(into: &out)
                phase = .withholding
                return .claimed(fingers: now)
            }
            write(held, at: time, into: &out)
            if now == 0 { phase = .idle }
            return nil
        case .withholding:
            if now == 0 && device.keysUp { phase = .idle }
            return nil
        }
    }

    /// A sequence that ended while held: the clone gets it whole, at once
    /// (its timing lost: a tap stays a tap).
    private mutating func endWhole(_ packets: [HeldPacket], at time: Double, into out: inout [EvdevEvent]) {
        for packet in packets { write(packet, at: time, into: &out) }
        phase = .idle
    }

    /// A count that is claimed outright (`claim_fingers`) withholds the sequence;
    /// nothing of a held one has reached the clone.
    private mutating func claimedAtOnce(_ fingers: Int) -> Signal? {
        guard let limit = settings.claimFingers, fingers >= limit else { return nil }
        phase = .withholding
        return .claimed(fingers: fingers)
    }

    /// A hold ends: a claimed rule's count waits for the recognizers, unless
    /// they already let it go; any other goes to the clone from the device's
    /// state as it is now.
    private mutating func open(keeping packets: [HeldPacket], since: Double, released: Bool, into out: inout [EvdevEvent]) {
        if !released, settings.pendingFingers.contains(device.fingers) {
            phase = .pending(packets: packets, until: since + settings.claimWait)
            return
        }
        // The landing where it was, then where the fingers are: the motion the
        // hold kept back (1.5 mm at most) reaches the desktop as one step, so a
        // pointer moves and a scroll scrolls as far as without the hold.
        if let landing = packets.first { write(landing, at: device.time, into: &out) }
        forwardFromNow(into: &out)
    }

    private mutating func forwardFromNow(into out: inout [EvdevEvent]) {
        phase = .forwarding
        write(HeldPacket(after: device, passing: []), at: device.time, into: &out)
    }

    private func moved(from origin: [Int: Position]) -> Bool {
        for (slot, start) in origin {
            guard let now = device.positions[slot] else { continue }
            if abs(Int64(now.x) - Int64(start.x)) >= Int64(settings.releaseDistance.x)
                || abs(Int64(now.y) - Int64(start.y)) >= Int64(settings.releaseDistance.y) { return true }
        }
        return false
    }

    /// The escape counts from when the fingers came to rest: a hand that
    /// moves (a five-finger gesture) starts it again.
    private mutating func noteCrowd(_ fingers: Int, at time: Double) {
        guard fingers >= settings.escapeFingers else {
            crowd = nil
            return
        }
        if let resting = crowd, !moved(from: resting.origin) { return }
        crowd = (time, device.positions)
    }

    private mutating func escape(into out: inout [EvdevEvent]) -> Signal {
        stop(into: &out)
        return .escape
    }

    // MARK: Writing the clone

    /// One packet that makes the clone what the device was after `packet`:
    /// its contacts with their values, its keys and axes, the kernel's way
    /// (slots selected as the clone needs, values it already has left out).
    /// While the clone is in step this is the device's packet itself; after a
    /// withheld or held stretch it also brings the clone up to date.
    private mutating func write(_ packet: HeldPacket, at time: Double, into out: inout [EvdevEvent]) {
        let start = out.count
        let target = packet.after
        var slots = Set(target.slots.keys)
        slots.formUnion(clone.slots.keys)
        for slot in slots.sorted() {
            let wanted = target.slots[slot] ?? [:]
            let trackingID = wanted[ABS.mtTrackingID] ?? -1
            if clone.slotValue(slot, ABS.mtTrackingID) ?? -1 != trackingID {
                write(slot: slot, code: ABS.mtTrackingID, value: trackingID, at: time, into: &out)
            }
            for code in wanted.keys.sorted() where code != ABS.mtTrackingID {
                if let value = wanted[code] { write(slot: slot, code: code, value: value, at: time, into: &out) }
            }
        }
        for code in target.axes.keys.sorted() {
            if let value = target.axes[code] { write(EvdevEvent(time: time, type: EV.abs, code: code, value: value), into: &out) }
        }
        for code in target.keys.keys.sorted() {
            if let value = target.keys[code] { write(EvdevEvent(time: time, type: EV.key, code: code, value: value), into: &out) }
        }
        // The device's next packet selects slots from the one it has now.
        if clone.slot != target.slot {
            let select = EvdevEvent(time: time, type: EV.abs, code: ABS.mtSlot, value: Int32(clamping: target.slot))
            out.append(select)
            clone.apply(select)
        }
        for e in packet.passing { out.append(e) }
        if out.count > start { out.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0)) }
    }

    /// A packet of the device's while the clone is in step with it (as every
    /// `write` of a whole state leaves it): the events as they came.
    private mutating func pass(_ events: [EvdevEvent], at time: Double, into out: inout [EvdevEvent]) {
        for e in events {
            out.append(e)
            clone.apply(e)
        }
        out.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0))
    }

    /// Every contact the clone has ends, and every key it holds goes up.
    private mutating func endClone(into out: inout [EvdevEvent]) {
        let start = out.count
        let time = device.time
        for slot in clone.activeSlots {
            write(slot: slot, code: ABS.mtTrackingID, value: -1, at: time, into: &out)
        }
        for code in clone.keys.keys.sorted() where clone.keys[code] != 0 {
            write(EvdevEvent(time: time, type: EV.key, code: code, value: 0), into: &out)
        }
        if out.count > start { out.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0)) }
    }

    private mutating func write(slot: Int, code: UInt16, value: Int32, at time: Double, into out: inout [EvdevEvent]) {
        guard clone.slotValue(slot, code) != value else { return }
        if clone.slot != slot {
            let select = EvdevEvent(time: time, type: EV.abs, code: ABS.mtSlot, value: Int32(clamping: slot))
            out.append(select)
            clone.apply(select)
        }
        let e = EvdevEvent(time: time, type: EV.abs, code: code, value: value)
        out.append(e)
        clone.apply(e)
    }

    private mutating func write(_ e: EvdevEvent, into out: inout [EvdevEvent]) {
        // The kernel drops a key or axis event that repeats the value it has.
        if e.type == EV.key, (clone.keys[e.code] ?? 0) == e.value { return }
        if e.type == EV.abs, clone.axes[e.code] == e.value { return }
        out.append(e)
        clone.apply(e)
    }
}
