import GestureCore

/// What reaches the desktop through a shared mouse's clone: every packet of
/// the mouse's, except the strokes, chords and button clicks gesturemap
/// claims. Events in, events for the clone out, signals out; no I/O.
///
/// The stroke button's press is held back while a stroke may still come (as
/// is the first button of a claimed chord). Let go under the threshold, it
/// reaches the clone at once as it came: a click. Held still past the
/// timeout, it reaches the clone then, and the rest live: a press held, or the
/// start of a drag. Moved past the threshold, a stroke begins and the
/// recognizers decide: claimed, the desktop sees no button at all; let go
/// (or undecided when the stroke rests), the desktop gets the press late and
/// everything after it, a drag. The clone is written from a model of what it
/// was told, so that it never gets a release it had no press for, and `end()`
/// leaves nothing down on it.
public struct MouseStrokeGate: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The buttons strokes are drawn with: those the rules bind strokes
        /// to; empty when no rule binds a stroke (nothing is held then).
        public var strokeButtons: Set<UInt16>
        /// Motion from the press, mm, that makes a held press a stroke.
        public var threshold: Double
        /// How long a held press waits for motion, and how long a stroke may
        /// rest undecided (seconds), before the desktop gets it.
        public var timeout: Double
        /// The mouse's counts a millimetre (`MouseResolution`).
        public var countsPerMillimetre: Double
        /// Chords a rule claims: their parts never reach the clone.
        public var claimedChords: Set<MouseChord>
        /// Chords a rule watches without claiming: reported, passed through.
        public var watchedChords: Set<MouseChord>
        /// Keyboard modifiers with a turn of the wheel that a rule claims: the
        /// turn never reaches the clone while exactly those modifiers are held.
        public var modifierWheels: Set<ModifierWheel>
        /// How each stroke button's bound rules start (`StrokeStart`): a
        /// stroke whose first arm is clearly none of them is let go at once,
        /// a drag. A button not listed starts any way: held as before.
        public var strokeStarts: [UInt16: StrokeStart]
        /// Buttons whose click alone a rule claims (`{ kind = "click", button =
        /// "side" }`): neither the press nor the release reaches the clone. A
        /// stroke button's or a chord lead's click is one when it is let go
        /// under the threshold; any other button's, at its press.
        public var claimedClicks: Set<UInt16>

        public init(strokeButtons: Set<UInt16> = [BTN.right], threshold: Double = MouseStrokeGate.defaultThreshold,
                    timeout: Double = MouseStrokeGate.defaultTimeout, countsPerMillimetre: Double = MouseResolution.fallback.countsPerMillimetre,
                    claimedChords: Set<MouseChord> = [], watchedChords: Set<MouseChord> = [], modifierWheels: Set<ModifierWheel> = [],
                    strokeStarts: [UInt16: StrokeStart] = [:], claimedClicks: Set<UInt16> = []) {
            self.strokeButtons = strokeButtons
            self.threshold = threshold
            self.timeout = timeout
            self.countsPerMillimetre = countsPerMillimetre
            self.claimedChords = claimedChords
            self.watchedChords = watchedChords
            self.modifierWheels = modifierWheels
            self.strokeStarts = strokeStarts
            self.claimedClicks = claimedClicks
        }

        /// Buttons whose press is held back: the stroke button, and the first
        /// button of each claimed chord (its press must not reach the desktop
        /// before the chord shows whether it is gesturemap's).
        var leads: Set<UInt16> {
            var out = Set(claimedChords.map(\.held))
            out.formUnion(strokeButtons)
            return out
        }
    }

    /// Easystroke and wstroke make a press a stroke past 16 pixels from where
    /// it was pressed; a count is a pixel at the pointer's unaccelerated rate,
    /// and libinput normalizes a mouse to 1000 dpi: 16 counts are 0.41 mm
    /// (docs/defaults.md, "Mouse strokes"); `config{ stroke_threshold }`.
    public static let defaultThreshold = Threshold.strokeThreshold.defaultValue
    /// Easystroke's default timeout profile waits 250 ms for motion (and for a
    /// resting stroke); InputActions waits 50 ms for more buttons, then 200 ms
    /// for motion; `config{ stroke_timeout }`.
    public static let defaultTimeout = Threshold.strokeTimeout.defaultValue
    /// Packets a held press keeps for the clone (4 s at 1000 Hz); past them the
    /// desktop gets it, as a drag, and the rest live.
    public static let maxHeldPackets = 4096

    /// One packet of the device's: its events without the SYN_REPORT, and the report's time.
    public struct Packet: Equatable, Sendable {
        public var events: [EvdevEvent]
        public var time: Double
    }

    /// A press held back from the clone.
    public struct Hold: Equatable, Sendable {
        public var button: UInt16
        public var since: Double
        /// What the clone has not had of it, as it came (the press first).
        public var packets: [Packet]
        /// Motion since the press, counts.
        var dx: Int64 = 0
        var dy: Int64 = 0
        var lastMotion: Double
        /// The button went up during an undecided stroke: where in `packets`, and when.
        var up: (index: Int, time: Double)?
        /// Its first arm was judged one a rule starts with (`StrokeStart`), or past judging.
        var startJudged = false

        public static func == (a: Hold, b: Hold) -> Bool {
            a.button == b.button && a.since == b.since && a.packets == b.packets && a.dx == b.dx && a.dy == b.dy
                && a.lastMotion == b.lastMotion && a.up?.index == b.up?.index && a.up?.time == b.up?.time && a.startJudged == b.startJudged
        }
    }

    public enum Phase: Equatable, Sendable {
        /// Nothing held: packets pass as they come.
        case idle
        /// A lead button's press, held until it is let go, moves past the
        /// threshold, waits past the timeout, or meets a chord.
        case holding(Hold)
        /// The stroke button moved past the threshold: the recognizers decide
        /// (`claim()` or `release()`), until the stroke rests for the timeout.
        case stroking(Hold)
        /// gesturemap's: these buttons and the pointer's motion do not reach
        /// the clone until every one of them is up.
        case withholding(owned: Set<UInt16>)
    }

    /// What the caller does besides writing the events.
    public enum Signal: Equatable, Sendable {
        /// The stroke button moved past the threshold: a stroke for the recognizers.
        case strokeBegan(button: UInt16)
        /// A stroke rested undecided past the timeout: the desktop has it now, a drag.
        case strokeForwarded(button: UInt16)
        /// A stroke's first arm went clearly where no rule's starts: the desktop has it now, a drag.
        case strokeLetGo(button: UInt16, start: Direction)
        /// A chord of the settings' happened; claimed ones reached the clone not at all.
        case chord(MouseChord, claimed: Bool)
        /// `claim()` took the held press: the desktop sees no button for it.
        case claimed(button: UInt16)
        /// A notch of a claimed modifier wheel: the clone got none of it.
        case modifierWheel(ModifierWheel)
        /// A claimed button's click: the clone gets none of it.
        case click(button: UInt16)
    }

    public private(set) var settings: Settings
    public private(set) var phase: Phase = .idle
    /// Buttons down on the device, in the order they went down.
    private var down: [UInt16] = []
    /// Buttons down on the clone, as it was told.
    public private(set) var cloneButtons: Set<UInt16> = []
    /// Claimed buttons down whose click a rule took at the press: their
    /// release is withheld too, whatever the rules say by then.
    private var clicksDown: Set<UInt16> = []
    private var packets = EvdevPackets()
    /// The last packet's time.
    private var time = 0.0
    /// The keyboard modifiers held, as the engine last said (`ModifierWheel`).
    public private(set) var modifiers: UInt8 = 0

    /// `state`: the device's state when sharing begins; buttons down then
    /// stay gesturemap's until they go up (the desktop saw none go down).
    public init(settings: Settings, state: [EvdevEvent] = []) {
        self.settings = settings
        for e in state where e.type == EV.key && e.value != 0 && !down.contains(e.code) { down.append(e.code) }
        if !down.isEmpty { phase = .withholding(owned: Set(down)) }
    }

    /// A rules reload: new claims; what is held stays held.
    public mutating func update(_ settings: Settings) {
        self.settings = settings
    }

    /// The engine read the keyboards: these modifiers are held now.
    public mutating func holdModifiers(_ modifiers: UInt8) {
        self.modifiers = modifiers
    }

    /// The next moment `expire(at:)` has work.
    public var deadline: Double? {
        switch phase {
        case .holding(let hold): return hold.since + settings.timeout
        case .stroking(let hold): return (hold.up?.time ?? hold.lastMotion) + settings.timeout
        case .idle, .withholding: return nil
        }
    }

    /// One event of the device's: the events the clone is to get now (whole
    /// packets, each ending in SYN_REPORT) and what else happened.
    public mutating func handle(_ event: EvdevEvent, into out: inout [EvdevEvent], signals: inout [Signal]) {
        guard let events = packets.add(event) else { return }
        var packet = Packet(events: events, time: event.time)
        if !settings.claimedClicks.isEmpty || !clicksDown.isEmpty { packet.events = takeClicks(packet.events, signals: &signals) }
        if let s = report(packet, into: &out) { signals.append(s) }
    }

    /// Time passed with no event: a held press or a resting stroke goes to the desktop.
    public mutating func expire(at now: Double, into out: inout [EvdevEvent]) -> Signal? {
        guard let due = deadline, now >= due else { return nil }
        switch phase {
        case .holding(let hold):
            forward(hold, into: &out)
        case .stroking(let hold):
            forward(hold, into: &out)
            return .strokeForwarded(button: hold.button)
        case .idle, .withholding:
            break
        }
        return nil
    }

    /// A claimed rule recognized the held press or stroke: the desktop sees no button for it.
    public mutating func claim(into out: inout [EvdevEvent]) -> Signal? {
        switch phase {
        case .holding(let hold), .stroking(let hold):
            if let up = hold.up {
                // Let go already: what came after it is the desktop's, live again.
                phase = .idle
                writeWithout(hold.button, hold.packets[(up.index + 1)...], into: &out)
            } else {
                phase = .withholding(owned: [hold.button])
            }
            return .claimed(button: hold.button)
        case .idle, .withholding:
            return nil
        }
    }

    /// The recognizers decided no claimed rule takes it: the desktop gets the
    /// held press and what followed, at once, and the rest live.
    public mutating func release(into out: inout [EvdevEvent]) {
        switch phase {
        case .holding(let hold), .stroking(let hold):
            forward(hold, into: &out)
        case .idle, .withholding:
            return
        }
    }

    /// The device is gone or sharing stops: whatever the clone holds goes up.
    public mutating func end(into out: inout [EvdevEvent]) {
        var releases: [EvdevEvent] = []
        for code in cloneButtons.sorted() { releases.append(EvdevEvent(time: time, type: EV.key, code: code, value: 0)) }
        write(releases, at: time, into: &out)
        phase = .idle
        clicksDown = []
        packets = EvdevPackets()
    }

    // MARK: Packets

    private mutating func report(_ p: Packet, into out: inout [EvdevEvent]) -> Signal? {
        time = p.time
        let before = down
        var presses: [UInt16] = []
        var releases: [UInt16] = []
        var motion = (x: Int64(0), y: Int64(0))
        for e in p.events {
            switch e.type {
            case EV.key where e.value != 0:
                if !down.contains(e.code) {
                    down.append(e.code)
                    presses.append(e.code)
                }
            case EV.key:
                if let i = down.firstIndex(of: e.code) {
                    down.remove(at: i)
                    releases.append(e.code)
                }
            case EV.rel where e.code == REL.x:
                motion.x = motion.x.saturatingAdd(Int64(e.value))
            case EV.rel where e.code == REL.y:
                motion.y = motion.y.saturatingAdd(Int64(e.value))
            default:
                break
            }
        }
        let moved = motion.x != 0 || motion.y != 0
        let turn = WheelTurn.of(p.events)

        switch phase {
        case .idle:
            if presses.count == 1, before.isEmpty, let lead = presses.first, settings.leads.contains(lead) {
                phase = .holding(Hold(button: lead, since: p.time, packets: [p], dx: motion.x, dy: motion.y, lastMotion: p.time))
                return nil
            }
            var events = p.events
            var signal: Signal?
            if let first = before.first(where: down.contains), let chord = chord(held: first, presses: presses, turn: turn) {
                let claimed = settings.claimedChords.contains(chord)
                if claimed {
                    // Its lead already reached the desktop (it was no lead then): only the chord's part is withheld.
                    events = Self.without(events) { chordPart($0, of: chord) }
                    if case .button(let b) = chord.then { phase = .withholding(owned: [b]) }
                }
                if claimed || settings.watchedChords.contains(chord), Self.completes(chord, p.events) { signal = .chord(chord, claimed: claimed) }
            }
            if signal == nil, let turn { signal = modifierWheel(turn, p.events, &events) }
            write(events, at: p.time, into: &out)
            return signal

        case .holding(var hold):
            hold.packets.append(p)
            hold.dx = hold.dx.saturatingAdd(motion.x)
            hold.dy = hold.dy.saturatingAdd(motion.y)
            if moved { hold.lastMotion = p.time }
            if releases.contains(hold.button) {
                if settings.claimedClicks.contains(hold.button) {
                    // A rule's click: what came with it reaches the clone, the button not.
                    phase = .idle
                    writeWithout(hold.button, hold.packets[...], into: &out)
                    return .click(button: hold.button)
                }
                // A click: as it came, at once.
                forward(hold, into: &out)
                return nil
            }
            if let chord = chord(held: hold.button, presses: presses, turn: turn) { return chorded(chord, hold, p.events, into: &out) }
            if hold.packets.count >= Self.maxHeldPackets {
                forward(hold, into: &out)
                return nil
            }
            if travelled(hold) {
                if settings.strokeButtons.contains(hold.button) {
                    phase = .stroking(hold)
                    return .strokeBegan(button: hold.button)
                }
                // A chord's lead that moves is a drag.
                forward(hold, into: &out)
                return nil
            }
            phase = .holding(hold)
            return nil

        case .stroking(var hold):
            hold.packets.append(p)
            if hold.up == nil {
                hold.dx = hold.dx.saturatingAdd(motion.x)
                hold.dy = hold.dy.saturatingAdd(motion.y)
                if moved { hold.lastMotion = p.time }
                if releases.contains(hold.button) {
                    hold.up = (hold.packets.count - 1, p.time)
                } else if let chord = chord(held: hold.button, presses: presses, turn: turn) {
                    return chorded(chord, hold, p.events, into: &out)
                } else if moved, !hold.startJudged, let start = settings.strokeStarts[hold.button] {
                    switch judge(&hold, start) {
                    case .unbound(let direction):
                        forward(hold, into: &out)
                        return .strokeLetGo(button: hold.button, start: direction)
                    case .bound, .undecided:
                        break
                    }
                }
            }
            if hold.packets.count >= Self.maxHeldPackets {
                forward(hold, into: &out)
                return .strokeForwarded(button: hold.button)
            }
            phase = .stroking(hold)
            return nil

        case .withholding(var owned):
            var events = Self.without(p.events) { e in
                // The pointer stays where gesturemap's press found it.
                (e.type == EV.key && owned.contains(e.code)) || (e.type == EV.rel && (e.code == REL.x || e.code == REL.y))
            }
            var signal: Signal?
            if let first = before.first(where: owned.contains), let chord = chord(held: first, presses: presses, turn: turn) {
                let claimed = settings.claimedChords.contains(chord)
                if claimed {
                    events = Self.without(events) { chordPart($0, of: chord) }
                    if case .button(let b) = chord.then { owned.insert(b) }
                }
                if claimed || settings.watchedChords.contains(chord), Self.completes(chord, p.events) { signal = .chord(chord, claimed: claimed) }
            }
            if signal == nil, let turn { signal = modifierWheel(turn, p.events, &events) }
            owned.formIntersection(down)
            phase = owned.isEmpty ? .idle : .withholding(owned: owned)
            write(events, at: p.time, into: &out)
            return signal
        }
    }

    /// A claimed button's click alone, taken at its press: the packet without
    /// its press and, later, its release.
    private mutating func takeClicks(_ events: [EvdevEvent], signals: inout [Signal]) -> [EvdevEvent] {
        var taken: Set<UInt16> = []
        for e in events where e.type == EV.key {
            if e.value == 0 {
                if clicksDown.remove(e.code) != nil { taken.insert(e.code) }
            } else if clicksDown.contains(e.code) {
                taken.insert(e.code)
            } else if takesAlone(e.code) {
                clicksDown.insert(e.code)
                taken.insert(e.code)
                signals.append(.click(button: e.code))
            }
        }
        return taken.isEmpty ? events : Self.without(events) { $0.type == EV.key && taken.contains($0.code) }
    }

    /// Whether a press of `code` is a claimed click taken at once: no stroke
    /// or chord starts with it (theirs wait for the release), it was not down
    /// already (the desktop had that press), and it makes no claimed chord
    /// with a button held.
    private func takesAlone(_ code: UInt16) -> Bool {
        guard settings.claimedClicks.contains(code), !settings.leads.contains(code), !down.contains(code) else { return false }
        return !settings.claimedChords.contains { $0.then == .button(code) && down.contains($0.held) }
    }

    /// A stroke's first arm against the starts its button's rules bind, once
    /// the stroke is far enough from the press; past judging, never again.
    private func judge(_ hold: inout Hold, _ start: StrokeStart) -> StrokeStart.Verdict {
        let counts = StrokeStart.judgedFrom * settings.countsPerMillimetre
        let reach = Double(hold.dx) * Double(hold.dx) + Double(hold.dy) * Double(hold.dy)
        guard reach >= counts * counts else { return .undecided }
        let verdict = start.judge(MouseShareGate.path(of: hold.packets[...], countsPerMillimetre: settings.countsPerMillimetre))
        let until = StrokeStart.judgedUntil * settings.countsPerMillimetre
        if case .bound = verdict { hold.startJudged = true } else if reach >= until * until { hold.startJudged = true }
        return verdict
    }

    /// The chord a packet makes with a button held: another button pressed, or the wheel turned.
    private func chord(held: UInt16, presses: [UInt16], turn: WheelTurn?) -> MouseChord? {
        if let other = presses.first(where: { $0 != held }) { return MouseChord(held: held, then: .button(other)) }
        if let turn { return MouseChord(held: held, then: .wheel(turn)) }
        return nil
    }

    /// A turn of the wheel while modifiers are held: withheld when a rule
    /// claims them with it, every part of the notch, and said once a notch.
    private func modifierWheel(_ turn: WheelTurn, _ packet: [EvdevEvent], _ events: inout [EvdevEvent]) -> Signal? {
        guard modifiers != 0 else { return nil }
        let held = ModifierWheel(modifiers: modifiers, turn: turn)
        guard settings.modifierWheels.contains(held) else { return nil }
        events = Self.without(events, WheelTurn.isWheel)
        return WheelTurn.notch(of: packet) == nil ? nil : .modifierWheel(held)
    }

    private func chordPart(_ e: EvdevEvent, of chord: MouseChord) -> Bool {
        switch chord.then {
        case .button(let b): return e.isKey(b)
        case .wheel: return WheelTurn.isWheel(e)
        }
    }

    /// A chord ends a hold: claimed, neither button reaches the clone (nor the
    /// motion held with them); otherwise the hold goes to the clone as it came.
    private mutating func chorded(_ chord: MouseChord, _ hold: Hold, _ packet: [EvdevEvent], into out: inout [EvdevEvent]) -> Signal? {
        let claimed = settings.claimedChords.contains(chord)
        if claimed {
            var owned: Set<UInt16> = [hold.button]
            if case .button(let b) = chord.then { owned.insert(b) }
            phase = .withholding(owned: owned)
        } else {
            forward(hold, into: &out)
        }
        return (claimed || settings.watchedChords.contains(chord)) && Self.completes(chord, packet) ? .chord(chord, claimed: claimed) : nil
    }

    /// Whether a packet completes its chord: a second button's press does; a
    /// wheel's turn does at the notch, so that a high-resolution wheel, which
    /// reports a notch in parts (REL_WHEEL_HI_RES, 120 a notch) and the notch
    /// itself with the last of them, runs a rule once a notch, not once a part.
    static func completes(_ chord: MouseChord, _ packet: [EvdevEvent]) -> Bool {
        guard case .wheel = chord.then else { return true }
        return WheelTurn.notch(of: packet) != nil
    }

    /// A packet without some of its events; a withheld button takes its
    /// MSC_SCAN with it, which names the switch that was pressed.
    private static func without(_ events: [EvdevEvent], _ withheld: (EvdevEvent) -> Bool) -> [EvdevEvent] {
        var keyWithheld = false
        var out: [EvdevEvent] = []
        for e in events {
            if withheld(e) {
                if e.type == EV.key { keyWithheld = true }
            } else {
                out.append(e)
            }
        }
        return keyWithheld ? out.filter { $0.type != EV.msc } : out
    }

    private func travelled(_ hold: Hold) -> Bool {
        let limit = settings.threshold * settings.countsPerMillimetre
        let x = Double(hold.dx)
        let y = Double(hold.dy)
        return x * x + y * y >= limit * limit
    }

    /// Held packets reach the clone now, without `button` (a rule took it).
    private mutating func writeWithout(_ button: UInt16, _ packets: ArraySlice<Packet>, into out: inout [EvdevEvent]) {
        for p in packets { write(Self.without(p.events) { $0.isKey(button) }, at: p.time, into: &out) }
    }

    /// The held packets reach the clone as they came, now; the rest live.
    private mutating func forward(_ hold: Hold, into out: inout [EvdevEvent]) {
        phase = .idle
        for p in hold.packets { write(p.events, at: p.time, into: &out) }
    }

    // MARK: Writing the clone

    /// One packet for the clone, without what would contradict what it was
    /// told (a press of a button it holds, a release of one it does not).
    private mutating func write(_ events: [EvdevEvent], at time: Double, into out: inout [EvdevEvent]) {
        let start = out.count
        for e in events {
            if e.type == EV.key {
                let isDown = cloneButtons.contains(e.code)
                if (e.value != 0) == isDown { continue }
                if e.value != 0 { cloneButtons.insert(e.code) } else { cloneButtons.remove(e.code) }
            }
            out.append(e)
        }
        if out.count > start { out.append(EvdevEvent(time: time, type: EV.syn, code: SYN.report, value: 0)) }
    }
}

extension EvdevEvent {
    func isKey(_ code: UInt16) -> Bool { type == EV.key && self.code == code }
}

extension Int64 {
    func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
