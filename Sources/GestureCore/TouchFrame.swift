/// Where a touch is in its life during one frame, as in UIKit's `UITouch.Phase`.
public enum TouchPhase: UInt8, Sendable, BitwiseCopyable {
    case began, moved, stationary, ended, cancelled

    // Inlinable: asked for every contact of every frame, in every module.
    @inlinable
    public var isActive: Bool { self == .began || self == .moved || self == .stationary }
}

/// One contact in one frame, in millimetres from the surface's top-left corner.
public struct Touch: Equatable, Sendable, BitwiseCopyable {
    public var id: Int
    public var position: Vector
    public var phase: TouchPhase

    public init(id: Int, position: Vector, phase: TouchPhase) {
        self.id = id
        self.position = position
        self.phase = phase
    }
}

/// The touch surface's size in millimetres, when the source knows its axis ranges.
public struct Surface: Equatable, Sendable, BitwiseCopyable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Everything that happened on one device at one instant of the input's clock.
///
/// `touches` holds every contact that is down during the frame, plus the ones that
/// lift in it (phase `.ended` or `.cancelled`); those are gone from the next frame.
public struct TouchFrame: Equatable, Sendable {
    public var time: Double
    public var touches: [Touch]
    public var surface: Surface?
    /// The touches' positions are the corners of the fingers' bounding box (a
    /// semi-mt pad with two or more fingers down), not where each finger is:
    /// their count and timing hold, a contact's own movement does not.
    /// (Declared here, it fills the optional's padding: a frame stays 56 bytes.)
    public var boundingBox: Bool
    /// A physical button of the device went down since the frame before, or
    /// is down (a clickpad's click): touches that click are no tap.
    public var clicked: Bool
    public var device: Int
    /// Fingers the hardware reports (BTN_TOOL_*) when that exceeds the tracked
    /// contacts, as on 2-slot and semi-MT touchpads; 0 when it adds nothing.
    public var reportedFingers: Int

    public init(time: Double, touches: [Touch] = [], surface: Surface? = nil, device: Int = 0, reportedFingers: Int = 0, boundingBox: Bool = false,
                clicked: Bool = false) {
        self.time = time
        self.touches = touches
        self.surface = surface
        self.device = device
        self.reportedFingers = reportedFingers
        self.boundingBox = boundingBox
        self.clicked = clicked
    }

    public var activeCount: Int {
        var n = 0
        for touch in touches where touch.phase.isActive { n += 1 }
        return n
    }
}

extension TouchFrame {
    /// Everything of a frame but its touches: what storage that keeps touches
    /// apart (a chunk decoded ahead) keeps per frame. Beside the fields, so a
    /// new one is added here too; a test compares the two field lists.
    public struct Header: Equatable, Sendable, BitwiseCopyable {
        public var time: Double
        public var surface: Surface?
        public var boundingBox: Bool
        public var clicked: Bool
        public var device: Int
        public var reportedFingers: Int
    }

    public var header: Header {
        Header(time: time, surface: surface, boundingBox: boundingBox, clicked: clicked, device: device, reportedFingers: reportedFingers)
    }

    /// Takes every field but the touches from `header`.
    public mutating func take(_ header: Header) {
        time = header.time
        surface = header.surface
        boundingBox = header.boundingBox
        clicked = header.clicked
        device = header.device
        reportedFingers = header.reportedFingers
    }
}
