import GestureCore

/// The part every evdev-shaped parser shares: a description that may arrive
/// before (or between) events, the slot assembler, and anomaly reports.
public struct EvdevStream: Sendable {
    public private(set) var description = EvdevDescription()
    public private(set) var assembler: SlotAssembler
    private let resolution: (x: Double, y: Double)?
    /// `--size`: the surface in millimetres, for a device that gives no resolution.
    private let size: Surface?
    /// What the system knows of a live device's size (udev, the display's EDID).
    private var systemHints: [SizeHint] = []
    private let transform: Transform
    private let device: Int
    private var warnedTransform = false
    /// The device's name, from a description given since it was last sent.
    private var unsentName: String?
    /// Whether the events are a mouse's, for the stroke gate, or a touch device's.
    private var sort = MouseRecordingSort()

    public init(resolution: (x: Double, y: Double)?, size: Surface? = nil, transform: Transform, device: Int) {
        self.resolution = resolution
        self.size = size
        self.transform = transform
        self.device = device
        assembler = SlotAssembler(converter: UnitConverter(device: nil, override: resolution, transform: transform), device: device)
    }

    /// Stand-ins for a resolution the device does not give, in the order they apply.
    private var sizeHints: [SizeHint] {
        var hints: [SizeHint] = []
        if let size { hints.append(SizeHint(.millimetres(width: size.width, height: size.height), from: .sizeOption)) }
        hints += systemHints
        let resolved = (description.deviceInfo.x.resolution ?? 0) > 0 && (description.deviceInfo.y.resolution ?? 0) > 0
        if !resolved, let id = description.id, let tablet = TabletDatabase.shared.size(of: id) {
            hints.append(SizeHint(.millimetres(width: tablet.width, height: tablet.height), from: .tabletDatabase(model: tablet.name)))
        }
        let info = description.deviceInfo
        if let xMax = info.x.maximum, let yMax = info.y.maximum, xMax > info.x.minimum, yMax > info.y.minimum {
            hints.append(.typical(touchscreen: description.isTouchscreen, span: (xMax - info.x.minimum, yMax - info.y.minimum)))
        }
        return hints
    }

    public var converter: UnitConverter { assembler.converter }
    public var eventCount: Int { assembler.eventCount + sort.mouseEventCount }
    /// The stream is a mouse's: its events went to `DecoderOutput.mouse`.
    public var isMouse: Bool { sort.kind == .mouse }

    /// Replaces the description; the units and surface follow it.
    public mutating func describe(_ update: (inout EvdevDescription) -> Void) {
        let nameBefore = description.name
        update(&description)
        assembler.converter = UnitConverter(device: description.deviceInfo, override: resolution, hints: sizeHints, transform: transform)
        assembler.slotCount = description.slotCount
        assembler.semiMT = description.isSemiMT
        // Only the single-touch axes: older kernels report 0 for the MT ones.
        assembler.seed(x: description.initialValues[ABS.x], y: description.initialValues[ABS.y])
        if let name = description.name, name != nameBefore { unsentName = name }
        sort.describe(description)
    }

    /// A name a description gave, into the output before the frames after it.
    @inline(__always)
    public mutating func sendName(to output: DecoderOutput) {
        guard let name = unsentName else { return }
        unsentName = nil
        output.deviceNamed(device, name)
    }

    /// One event: a touch device's to the assembler, a mouse's to `mouse` as it came.
    @inline(__always)
    public mutating func handle(_ event: EvdevEvent, emit: (TouchFrame) -> Void, mouse: (_ device: Int, _ event: EvdevEvent) -> Void) {
        if sort.kind == .touch { return assembler.handle(event, emit: emit) }
        let device = device
        sort.route(event, touch: { assembler.handle($0, emit: emit) }, mouse: { mouse(device, $0) })
    }

    /// What went wrong or was repaired since the last call, each kind once.
    public mutating func takeNotes() -> [String] {
        var notes = assembler.takeAnomalies()
        if !warnedTransform, let problem = assembler.converter.transformProblem, assembler.eventCount > 0 {
            warnedTransform = true
            notes.append(problem)
        }
        return notes
    }

    public mutating func flush(emit: (TouchFrame) -> Void) { assembler.flush(emit: emit) }
    public mutating func finish(emit: (TouchFrame) -> Void) {
        sort.finish(touch: { assembler.handle($0, emit: emit) })
        assembler.finish(emit: emit)
    }

    public var dropRecovery: DropRecovery {
        get { assembler.dropRecovery }
        set { assembler.dropRecovery = newValue }
    }

    /// A live device's size as the system knows it (see `DeviceSizeProbe`).
    public mutating func useSystemHints(_ hints: [SizeHint]) {
        systemHints = hints
        describe { _ in }
    }
}

/// A text format of evdev events (evemu, evtest): parsing its lines is its own,
/// everything else comes from its `EvdevStream`.
public protocol EvdevTextParser: LineParser {
    var stream: EvdevStream { get }
    init(resolution: (x: Double, y: Double)?, size: Surface?, transform: Transform, device: Int)
}

extension EvdevTextParser {
    public var eventCount: Int { stream.eventCount }
    public var deviceName: String? { stream.description.name }
    public var converter: UnitConverter { stream.converter }
    public var readsMouse: Bool { stream.isMouse }
    public func unitsExplanation(source: String) -> String { stream.converter.explanation(source: source) }
}

extension LineDecoder where Parser: EvdevTextParser {
    public init(source: String, resolution: (x: Double, y: Double)? = nil, size: Surface? = nil, transform: Transform = .identity,
                device: Int = 0) {
        self.init(source: source, parser: Parser(resolution: resolution, size: size, transform: transform, device: device))
    }
}
