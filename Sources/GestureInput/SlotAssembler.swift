import GestureCore

/// Input the assembler repaired rather than rejected; the decoder reports each
/// kind once, with the line where it first happened.
public enum AssemblyAnomaly: Int, CaseIterable, Sendable {
    case trackingIDChangedWithoutLift
    case liftForSlotWithoutContact
    case eventsDropped
    case contactAlreadyDown
    case slotOutOfRange
    case tooManyContacts

    public var message: String {
        switch self {
        case .trackingIDChangedWithoutLift:
            return "a slot's tracking id changed without a lift (-1) first; ended the old contact and began a new one (reported once)"
        case .liftForSlotWithoutContact:
            return "a lift (tracking id -1) for a slot with no contact; ignored (reported once)"
        case .eventsDropped:
            return "SYN_DROPPED: the device dropped events; touches in progress were cancelled, and fingers still down are ignored until they lift (reported once)"
        case .contactAlreadyDown:
            return "a contact was already down when the input began (positions without a tracking id); treated as landing then (reported once)"
        case .slotOutOfRange:
            return "ABS_MT_SLOT outside 0...\(InputLimits.maxContacts - 1); that slot's events are ignored (reported once)"
        case .tooManyContacts:
            return "more than \(InputLimits.maxContacts) contacts in one SYN_MT_REPORT packet; the extra ones are ignored (reported once)"
        }
    }
}

/// How the stream reports its contacts, as far as it has shown so far.
public enum ProtocolMode: Equatable, Sendable {
    /// No multitouch event yet: BTN_TOUCH and ABS_X/ABS_Y are the one contact.
    case unknown
    /// Multitouch values without ABS_MT_SLOT or SYN_MT_REPORT yet: read as slot 0,
    /// and kept as a protocol-A contact too until the protocol shows.
    case undecided
    /// Protocol B: slots, each a contact.
    case protocolB
    /// Protocol B on a semi-MT pad: the slots are corners of a bounding box.
    case semiMT
    /// Protocol A: anonymous contacts, each packet listing them all.
    case protocolA

    var usesSlots: Bool { self == .undecided || self == .protocolB || self == .semiMT }
}

/// Either kind of repair the assembler makes, for one report of each.
enum AssemblerNote: Hashable, Sendable {
    case assembly(AssemblyAnomaly)
    case framing(FramingAnomaly)

    var message: String {
        switch self {
        case .assembly(let a): return a.message
        case .framing(let f): return f.message
        }
    }
}

/// Turns evdev events into frames, for every evdev-shaped source (raw bytes,
/// evemu, evtest, live devices).
///
/// Protocol B: `ABS_MT_SLOT` selects a slot (none yet means slot 0; a packet may
/// continue the last slot), `ABS_MT_TRACKING_ID` ≥ 0 begins a contact and -1 ends
/// it, and values come only when they change, so a contact may start without X or
/// Y and keeps its slot's last ones. Protocol A (`SYN_MT_REPORT`, no slots) is
/// matched frame to frame by tracking id or, without ids, by nearest position.
/// Devices with no multitouch axes at all follow BTN_TOUCH and ABS_X/ABS_Y.
public struct SlotAssembler: Sendable {
    /// Contacts the hardware can track at once (ABS_MT_SLOT's maximum + 1), when known.
    public var slotCount: Int?
    /// Semi-MT pads report a bounding box, not fingers: extra contacts follow the
    /// first. Set from the description; the mode follows once slots show.
    public var semiMT = false {
        didSet {
            if mode == .protocolB && semiMT { mode = .semiMT }
            if mode == .semiMT && !semiMT { mode = .protocolB }
        }
    }
    public private(set) var mode = ProtocolMode.unknown
    public var converter: UnitConverter {
        didSet { framer.surface = converter.surface }
    }
    /// What follows a SYN_DROPPED in this stream.
    public var dropRecovery = DropRecovery.skipToReport
    public private(set) var eventCount = 0

    private var framer: TouchFramer
    private var slots: [SlotState] = []
    /// Semi-MT, by slot: where each contact was, and where the first one was,
    /// when it began. Apart from `slots`, which stays within 64 bytes a slot:
    /// larger, every copy became a call to memmove.
    private var anchors: [(own: Vector, primary: Vector)] = []
    /// The slot ABS_MT_SLOT selected; nil while it selects one out of range.
    private var current: Int? = 0
    private var drop = DropPhase.none
    private var tool = [Bool](repeating: false, count: 6)
    private var touching = false
    /// The device's physical buttons (BTN_LEFT to BTN_TASK) down as clicks of the fingers, as bits.
    private var buttons: UInt8 = 0
    private var single: (x: Int32?, y: Int32?) = (nil, nil)
    private var singleContact = SingleContact.none
    private var singleMoved = false
    private var nextContact = 1
    private var notes = OnceReporter<AssemblerNote>()

    // Protocol A: the contacts of the packet being read, and of the last packet.
    private var packet: [ReportedContact] = []
    private var building = ReportedContact()
    private var previous: [ContactA] = []
    /// After a SYN_DROPPED: the contacts of the next packet were down before it.
    private var ignoresNextPacketA = false

    /// A protocol-A contact as the last packet left it.
    private struct ContactA: Sendable {
        var contact: Int
        var x: Int32
        var y: Int32
        var id: Int32?
        /// Flagged a palm: never landed, or cancelled, and silent until it goes.
        var palm: Bool
    }

    /// Stored without optionals, widest fields first: optional Int32s pack to
    /// odd offsets, and copying a slot then costs unaligned moves and stalls on
    /// every packet. The optional views below keep the logic readable.
    private struct SlotState: Sendable {
        /// 0 for none: contacts are numbered from 1.
        private var contactNumber = 0
        var trackingID: Int32 = -1
        private var rawX: Int32 = 0
        private var rawY: Int32 = 0
        private var pendingID: Int32 = 0
        private var hasX = false
        private var hasY = false
        private var hasPendingID = false
        var seenID = false
        /// The contact has begun but has no position yet: it lands once it has one.
        var waitingForPosition = false
        var endPending = false
        var moved = false
        /// ABS_MT_TOOL_TYPE, which like every slot value persists between contacts.
        var toolType: Int32 = 0
        /// The contact is a palm: it never landed, or was cancelled, and its
        /// events are ignored until it lifts.
        var palmIgnored = false

        /// Nothing to report: no contact, nothing pending, no new values.
        var isIdle: Bool {
            contactNumber == 0 && !hasPendingID && !moved && !endPending && !waitingForPosition
        }

        /// A contact down and seen, nothing beginning or ending, no palm: at
        /// most a move to report.
        var isSteady: Bool {
            contactNumber > 0 && !hasPendingID && !endPending && !waitingForPosition && !palmIgnored && toolType != MTTool.palm
        }

        var x: Int32? {
            get { hasX ? rawX : nil }
            set { hasX = newValue != nil; rawX = newValue ?? 0 }
        }
        var y: Int32? {
            get { hasY ? rawY : nil }
            set { hasY = newValue != nil; rawY = newValue ?? 0 }
        }
        var contact: Int? {
            get { contactNumber > 0 ? contactNumber : nil }
            set { contactNumber = newValue ?? 0 }
        }
        var beginPending: Int32? {
            get { hasPendingID ? pendingID : nil }
            set { hasPendingID = newValue != nil; pendingID = newValue ?? 0 }
        }
    }

    private struct ReportedContact: Sendable {
        var x: Int32?
        var y: Int32?
        var id: Int32?
        var tool: Int32?
        /// ABS_MT_TOUCH_MAJOR, when the device sends it.
        var major: Int32?
        var isEmpty: Bool { x == nil && y == nil && id == nil && tool == nil }
    }

    /// Values the single-touch axes had when the recording began.
    public mutating func seed(x: Int32?, y: Int32?) {
        if single.x == nil { single.x = x }
        if single.y == nil { single.y = y }
    }

    public init(converter: UnitConverter, device: Int = 0) {
        self.converter = converter
        framer = TouchFramer(surface: converter.surface, device: device)
    }

    /// Anomalies since the last call, each kind at most once per stream.
    public mutating func takeAnomalies() -> [String] {
        notes.take().map(\.message)
    }

    // Out of line: repairs are rare, and the packet path stays small enough to inline.
    @inline(never)
    private mutating func note(_ a: AssemblyAnomaly) { notes.note(.assembly(a)) }

    @inline(never)
    private mutating func note(_ f: FramingAnomaly) { notes.note(.framing(f)) }

    // Inlined into each decoder's loop: a call per event, and another to
    // `absolute`, cost as much as the dispatch itself.
    @inline(__always)
    public mutating func handle(_ e: EvdevEvent, emit: (TouchFrame) -> Void) {
        if drop != .none, !handleAfterDrop(e, emit: emit) { return }
        switch e.type {
        case EV.syn:
            switch e.code {
            case SYN.report: report(at: e.time, emit: emit)
            case SYN.mtReport:
                mode = .protocolA
                endContactA()
            case SYN.dropped:
                beginDrop(at: e.time, emit: emit)
            default: break
            }
        case EV.key:
            if let n = BTN.toolFingers(e.code) {
                tool[n] = e.value != 0
            } else if e.code == BTN.touch {
                touching = e.value != 0
            } else if e.code >= BTN.left, e.code < BTN.left + 8 {
                press(button: Int(e.code - BTN.left), down: e.value != 0)
            }
        case EV.abs:
            absolute(e)
        default:
            break
        }
    }

    /// A clickpad's click, or a touchpad's own button, pressed on fingers
    /// that were down before its packet. One pressed in the packet where the
    /// touch lands is a touchscreen's emulated click (BTN_LEFT with the
    /// touch), and one with no finger down is a button beside the pad: neither
    /// is a click of the fingers.
    private mutating func press(button: Int, down: Bool) {
        let bit = UInt8(1) << UInt8(button)
        if down {
            guard framer.hasContactsDown else { return }
            if buttons & bit == 0 { framer.click() }
            buttons |= bit
        } else {
            buttons &= ~bit
        }
        framer.buttonHeld = buttons != 0
    }

    @inline(__always)
    private mutating func absolute(_ e: EvdevEvent) {
        switch e.code {
        case ABS.mtSlot:
            if mode == .unknown || mode == .undecided { mode = semiMT ? .semiMT : .protocolB }
            guard e.value >= 0, e.value < InputLimits.maxContacts else {
                note(.slotOutOfRange)
                current = nil
                return
            }
            let slot = Int(e.value)
            current = slot
            ensureSlot(slot)
        case ABS.mtTouchMajor:
            if mode == .protocolA || mode == .undecided { building.major = e.value }
        case ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID, ABS.mtToolType:
            if mode == .unknown { mode = .undecided }
            // Until a slot or SYN_MT_REPORT shows the protocol, the values may be a
            // protocol-A contact's: keep them for either.
            if mode == .protocolA || mode == .undecided {
                switch e.code {
                case ABS.mtPositionX: building.x = e.value
                case ABS.mtPositionY: building.y = e.value
                case ABS.mtToolType: building.tool = e.value
                default: building.id = e.value
                }
                if mode == .protocolA { return }
            }
            guard let current else { return }
            ensureSlot(current)
            switch e.code {
            case ABS.mtPositionX:
                slots[current].x = e.value
                slots[current].moved = true
            case ABS.mtPositionY:
                slots[current].y = e.value
                slots[current].moved = true
            case ABS.mtToolType:
                slots[current].toolType = e.value
            default:
                trackingID(e.value, slot: current)
            }
        case ABS.x:
            single.x = e.value
            singleMoved = true
        case ABS.y:
            single.y = e.value
            singleMoved = true
        default:
            break
        }
    }

    private mutating func trackingID(_ value: Int32, slot index: Int) {
        var slot = slots[index]
        slot.seenID = true
        if value < 0 {
            if slot.contact != nil || slot.beginPending != nil {
                if slot.beginPending != nil && slot.contact == nil {
                    slot.beginPending = nil  // began and ended within one packet: never seen
                } else {
                    slot.endPending = true
                    slot.beginPending = nil
                }
            } else {
                note(.liftForSlotWithoutContact)
            }
            slot.trackingID = -1
        } else if value != slot.trackingID || (slot.contact == nil && slot.beginPending == nil) {
            if slot.contact != nil && !slot.endPending {
                // An ignored contact's lift may have been lost with a SYN_DROPPED.
                if !slot.palmIgnored { note(.trackingIDChangedWithoutLift) }
                slot.endPending = true
            }
            slot.beginPending = value
            slot.trackingID = value
        }
        slots[index] = slot
    }

    @inline(__always)
    private mutating func ensureSlot(_ i: Int) {
        if i >= slots.count { addSlots(upTo: i) }
    }

    @inline(never)
    private mutating func addSlots(upTo i: Int) {
        while slots.count <= i {
            slots.append(SlotState())
            anchors.append((.zero, .zero))
        }
    }

    // MARK: Packets

    private mutating func report(at time: Double, emit: (TouchFrame) -> Void) {
        eventCount += 1
        switch mode {
        case .protocolA:
            reportProtocolA(at: time, emit: emit)
        case .undecided, .protocolB, .semiMT:
            building = ReportedContact()
            reportSlots(at: time, emit: emit)
        case .unknown:
            reportSingleTouch(at: time, emit: emit)
        }
        framer.reportedFingers = reportedFingers()
        framer.boundingBox = reportsBoundingBox
        if let anomaly = framer.sync(time: time, emit: emit) { note(anomaly) }
    }

    /// A semi-mt pad with two or more contacts reports the corners of their
    /// bounding box, not each finger: the core must not read corner jumps as
    /// movement (ALPS, Cypress).
    // Inlined: a call from a mutating method would copy the whole assembler.
    private var reportsBoundingBox: Bool {
        @inline(__always) get {
            guard mode == .semiMT || (mode == .undecided && semiMT) else { return false }
            var down = 0
            for slot in slots where slot.contact != nil && !slot.palmIgnored && !slot.waitingForPosition { down += 1 }
            return down >= 2
        }
    }

    // Inlined: a call from a mutating method would copy the whole assembler.
    @inline(__always)
    private func reportedFingers() -> Int {
        guard mode != .protocolA, let slotCount else { return 0 }
        var count = 0
        for n in 1...5 where tool[n] { count = n }
        return count > slotCount ? count : 0
    }

    private mutating func reportSlots(at time: Double, emit: (TouchFrame) -> Void) {
        if slots.isEmpty { ensureSlot(0) }
        let box = mode == .semiMT || (mode == .undecided && semiMT)
        // Only a bounding box's corners follow the first contact down.
        var primary: Int?
        if box {
            for i in slots.indices where slots[i].contact != nil && !slots[i].endPending && !slots[i].waitingForPosition && !slots[i].palmIgnored {
                primary = i
                break
            }
        }
        // Slots are read and changed where they lie: copying each in and out
        // was the largest cost of a packet.
        for i in slots.indices {
            if slots[i].isIdle { continue }
            if !box, slots[i].isSteady {
                // The usual packet: a finger down that moved or stayed, nothing
                // beginning or ending. The general steps below would do the same.
                if slots[i].moved, let contact = slots[i].contact {
                    apply(.move, time: time, contact: contact, position: position(of: i), emit: emit)
                }
                continue
            }
            if slots[i].endPending, let contact = slots[i].contact {
                if !slots[i].waitingForPosition && !slots[i].palmIgnored { apply(.up, time: time, contact: contact, position: nil, emit: emit) }
                slots[i].contact = nil
                slots[i].waitingForPosition = false
                slots[i].palmIgnored = false
            }
            slots[i].endPending = false
            let implicit = !slots[i].seenID && slots[i].moved && slots[i].contact == nil
            if slots[i].beginPending != nil || implicit {
                if implicit {
                    note(.contactAlreadyDown)
                    slots[i].seenID = true
                }
                slots[i].contact = nextContact
                nextContact += 1
                slots[i].beginPending = nil
                slots[i].waitingForPosition = true
                slots[i].palmIgnored = false
            }
            if slots[i].toolType == MTTool.palm, !slots[i].palmIgnored, let contact = slots[i].contact {
                // A palm is no finger: never seen if it lands as one, cancelled
                // (so it completes no tap) if a finger becomes one.
                if !slots[i].waitingForPosition { apply(.cancel, time: time, contact: contact, position: nil, emit: emit) }
                slots[i].palmIgnored = true
                slots[i].waitingForPosition = false
                if primary == i { primary = nil }
            }
            if slots[i].palmIgnored {
                slots[i].moved = false
                continue
            }
            if slots[i].waitingForPosition, let contact = slots[i].contact {
                // A contact lands once both of its coordinates are known.
                guard let p = knownPosition(of: i) else {
                    slots[i].moved = false
                    continue
                }
                slots[i].waitingForPosition = false
                anchors[i].own = p
                if box, let primary, primary != i { anchors[i].primary = position(of: primary) }
                apply(.down, time: time, contact: contact, position: boundingBoxPosition(i, box: box, primary: primary, own: p), emit: emit)
                if primary == nil { primary = i }
                slots[i].moved = false
                continue
            }
            if let contact = slots[i].contact, slots[i].moved || (box && primary != nil && primary != i) {
                apply(.move, time: time, contact: contact, position: boundingBoxPosition(i, box: box, primary: primary, own: position(of: i)), emit: emit)
            }
            slots[i].moved = false
        }
        // Every slot ends its packet with nothing moved; cleared here in one
        // pass, not with a uniqueness check per steady slot.
        slots.withUnsafeMutableBufferPointer { all in
            for i in all.indices { all[i].moved = false }
        }
    }

    /// Semi-MT positions are corners of a bounding box: every contact but the
    /// first moves exactly as the first does.
    // Inlined: a call from a mutating method would copy the whole assembler.
    @inline(__always)
    private func boundingBoxPosition(_ i: Int, box: Bool, primary: Int?, own: Vector) -> Vector {
        guard box, let primary, primary != i else { return own }
        return anchors[i].own + (position(of: primary) - anchors[i].primary)
    }

    /// Closes the protocol-A contact being read (SYN_MT_REPORT), keeping at
    /// most the cap's worth per packet.
    private mutating func endContactA() {
        defer { building = ReportedContact() }
        guard !building.isEmpty else { return }
        guard packet.count < InputLimits.maxContacts else {
            note(AssemblyAnomaly.tooManyContacts)
            return
        }
        packet.append(building)
    }

    private mutating func reportProtocolA(at time: Double, emit: (TouchFrame) -> Void) {
        endContactA()
        let reported = packet.compactMap { c -> ContactA? in
            // A contact of no size hovers: bcm5974 goes on reporting one for
            // half a second after the finger went up.
            guard let x = c.x, let y = c.y, c.major != 0 else { return nil }
            return ContactA(contact: 0, x: x, y: y, id: c.id, palm: c.tool == MTTool.palm)
        }
        packet.removeAll(keepingCapacity: true)
        var matched = [Bool](repeating: false, count: reported.count)
        var next: [ContactA] = []
        // By tracking id when the device sends them, else nearest first. While
        // the count stays the same the same fingers are there, however fast they
        // move (and without a resolution, distances in mm are guesses); only when
        // fingers come or go does distance decide which is which. Both counts are
        // capped, so this is at most 64 x 64 pairs.
        let sameCount = previous.count == reported.count
        var pairs: [(old: Int, new: Int, distance: Double)] = []
        for (o, old) in previous.enumerated() {
            for (n, new) in reported.enumerated() {
                if let a = old.id, let b = new.id {
                    if a == b { pairs.append((o, n, -1)) }
                } else {
                    let d = millimetres(old.x, old.y).distance(to: millimetres(new.x, new.y))
                    if sameCount || d <= SlotAssembler.protocolAMatchDistance { pairs.append((o, n, d)) }
                }
            }
        }
        pairs.sort { $0.distance < $1.distance }
        var oldTaken = [Bool](repeating: false, count: previous.count)
        for pair in pairs where !oldTaken[pair.old] && !matched[pair.new] {
            oldTaken[pair.old] = true
            matched[pair.new] = true
            let old = previous[pair.old]
            var new = reported[pair.new]
            new.contact = old.contact
            if old.palm {
                new.palm = true
            } else if new.palm {
                apply(.cancel, time: time, contact: old.contact, position: nil, emit: emit)
            } else if old.x != new.x || old.y != new.y {
                apply(.move, time: time, contact: old.contact, position: millimetres(new.x, new.y), emit: emit)
            }
            next.append(new)
        }
        for (o, old) in previous.enumerated() where !oldTaken[o] && !old.palm {
            apply(.up, time: time, contact: old.contact, position: nil, emit: emit)
        }
        for (n, new) in reported.enumerated() where !matched[n] {
            var added = new
            added.contact = nextContact
            nextContact += 1
            // Down since before a SYN_DROPPED: where it began is lost.
            if ignoresNextPacketA { added.palm = true }
            if !added.palm { apply(.down, time: time, contact: added.contact, position: millimetres(new.x, new.y), emit: emit) }
            next.append(added)
        }
        previous = next
        ignoresNextPacketA = false
    }

    /// Contacts further apart than this between two packets are different fingers.
    static let protocolAMatchDistance = 25.0

    private mutating func reportSingleTouch(at time: Double, emit: (TouchFrame) -> Void) {
        guard let x = single.x, let y = single.y else { return }
        switch singleContact {
        case .none where touching:
            let contact = nextContact
            nextContact += 1
            singleContact = .down(contact)
            apply(.down, time: time, contact: contact, position: millimetres(x, y), emit: emit)
        case .down(let contact) where !touching:
            apply(.up, time: time, contact: contact, position: nil, emit: emit)
            singleContact = .none
        case .down(let contact) where singleMoved:
            apply(.move, time: time, contact: contact, position: millimetres(x, y), emit: emit)
        case .ignoredUntilLift where !touching:
            singleContact = .none
        default:
            break
        }
        singleMoved = false
    }

    /// Where a new contact is: its slot's last values (the kernel keeps them between
    /// contacts), else the single-touch axes, which follow the first contact.
    // Inlined: a call from a mutating method would copy the whole assembler.
    @inline(__always)
    private func knownPosition(of i: Int) -> Vector? {
        guard let x = slots[i].x ?? single.x, let y = slots[i].y ?? single.y else { return nil }
        return millimetres(x, y)
    }

    // Inlined: a call from a mutating method would copy the whole assembler.
    @inline(__always)
    private func position(of i: Int) -> Vector {
        millimetres(slots[i].x ?? single.x ?? 0, slots[i].y ?? single.y ?? 0)
    }

    @inline(__always)
    private func millimetres(_ x: Int32, _ y: Int32) -> Vector {
        converter.millimetres(x: Double(x), y: Double(y))
    }

    // Inlined: the framer's usual move is then a few instructions in the packet's loop.
    @inline(__always)
    private mutating func apply(_ kind: TouchEventKind, time: Double, contact: Int, position: Vector?, emit: (TouchFrame) -> Void) {
        if let anomaly = framer.apply(kind, time: time, id: contact, x: position?.x, y: position?.y, emit: emit) {
            note(anomaly)
        }
    }

    // MARK: SYN_DROPPED

    /// The stream lost events: every contact in progress is cancelled (its
    /// path is incomplete, so it must not complete a gesture), and what comes
    /// next is either skipped or read as the device's state.
    private mutating func beginDrop(at time: Double, emit: (TouchFrame) -> Void) {
        note(.eventsDropped)
        building = ReportedContact()
        packet.removeAll()
        switch dropRecovery {
        case .skipToReport:
            drop = .skipping
        case .kernelState:
            interruptAll(at: time, emit: emit)
            drop = .readingState
        }
    }

    /// While a drop lasts: false when the event is consumed by it.
    @inline(never)
    private mutating func handleAfterDrop(_ e: EvdevEvent, emit: (TouchFrame) -> Void) -> Bool {
        let isReport = e.type == EV.syn && e.code == SYN.report
        switch drop {
        case .none:
            return true
        case .skipping:
            // The rest of a packet cut off by the drop means nothing.
            if isReport {
                drop = .none
                interruptAll(at: e.time, emit: emit)
            }
            return false
        case .readingState:
            guard isReport else {
                // The state as the kernel has it: slot values, tracking ids, keys.
                return !(e.type == EV.syn && e.code == SYN.dropped)
            }
            drop = .none
            settleState()
            return false
        }
    }

    /// Cancels every contact in progress; each stays ignored until it lifts.
    private mutating func interruptAll(at time: Double, emit: (TouchFrame) -> Void) {
        // A contact whose lift came in the packet the drop cut off is cancelled
        // too: the core has it down until it hears otherwise.
        for slot in slots where !slot.waitingForPosition && !slot.palmIgnored {
            if let contact = slot.contact { apply(.cancel, time: time, contact: contact, position: nil, emit: emit) }
        }
        for old in previous where !old.palm { apply(.cancel, time: time, contact: old.contact, position: nil, emit: emit) }
        previous.removeAll()
        ignoresNextPacketA = true
        if case .down(let contact) = singleContact {
            apply(.cancel, time: time, contact: contact, position: nil, emit: emit)
            singleContact = .ignoredUntilLift
        }
        ignoreFingersDown()
        apply(.sync, time: time, contact: 0, position: nil, emit: emit)
    }

    /// After the kernel's state was read. Nothing is emitted: the values read
    /// are where things are, not how they moved.
    private mutating func settleState() {
        ignoreFingersDown()
        building = ReportedContact()
        packet.removeAll()
    }

    /// A slot with a tracking id holds a finger that was down through a drop
    /// or landed during it: where it began is lost, so it is ignored until it
    /// lifts. The other slots are free.
    private mutating func ignoreFingersDown() {
        for i in slots.indices {
            slots[i].seenID = true
            slots[i].beginPending = nil
            slots[i].endPending = false
            slots[i].moved = false
            slots[i].waitingForPosition = false
            if slots[i].trackingID >= 0 {
                if slots[i].contact == nil {
                    slots[i].contact = nextContact
                    nextContact += 1
                }
                slots[i].palmIgnored = true
            } else {
                slots[i].contact = nil
                slots[i].palmIgnored = false
            }
        }
        singleMoved = false
        if case .none = singleContact, touching { singleContact = .ignoredUntilLift }
    }

    public mutating func flush(emit: (TouchFrame) -> Void) { framer.flush(emit: emit) }
    public mutating func finish(emit: (TouchFrame) -> Void) { framer.finish(emit: emit) }
}

/// What follows a SYN_DROPPED.
public enum DropRecovery: Equatable, Sendable {
    /// A recording or a pipe: the rest of the packet the drop cut off, which
    /// is skipped up to the next SYN_REPORT.
    case skipToReport
    /// A live device read through libevdev: the device's state as the kernel
    /// has it now (EVIOCGMTSLOTS, EVIOCGABS, EVIOCGKEY), ended by one SYN_REPORT.
    case kernelState
}

/// Where a stream is in recovering from a SYN_DROPPED.
enum DropPhase: Sendable {
    case none
    case skipping
    case readingState
}

/// The one contact of a device without multitouch axes.
enum SingleContact: Sendable {
    case none
    case down(Int)
    /// Down since before a SYN_DROPPED: where it began is lost.
    case ignoredUntilLift
}
