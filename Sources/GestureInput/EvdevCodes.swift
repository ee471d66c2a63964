/// The few <linux/input-event-codes.h> values gesturemap reads, with the names
/// evtest and evemu print for them.
public enum EV {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
}

/// REL_* codes of a mouse's motion and wheels.
public enum REL {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let hwheel: UInt16 = 0x06
    public static let wheel: UInt16 = 0x08
    public static let wheelHiRes: UInt16 = 0x0b
    public static let hwheelHiRes: UInt16 = 0x0c
}

public enum SYN {
    public static let report: UInt16 = 0
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum ABS {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtTrackingID: UInt16 = 0x39
}

/// ABS_MT_TOOL_TYPE values.
public enum MTTool {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}

public enum BTN {
    public static let left: UInt16 = 0x110
    public static let right: UInt16 = 0x111
    public static let middle: UInt16 = 0x112
    public static let side: UInt16 = 0x113
    public static let extra: UInt16 = 0x114
    public static let touch: UInt16 = 0x14a
    public static let toolFinger: UInt16 = 0x145
    public static let toolQuintTap: UInt16 = 0x148
    public static let toolDoubleTap: UInt16 = 0x14d
    public static let toolTripleTap: UInt16 = 0x14e
    public static let toolQuadTap: UInt16 = 0x14f

    /// Fingers a BTN_TOOL_* key stands for, or nil for other keys.
    public static func toolFingers(_ code: UInt16) -> Int? {
        switch code {
        case toolFinger: return 1
        case toolDoubleTap: return 2
        case toolTripleTap: return 3
        case toolQuadTap: return 4
        case toolQuintTap: return 5
        default: return nil
        }
    }
}

/// INPUT_PROP_* bits.
public enum InputProperty {
    public static let direct = 0x01
    public static let buttonpad = 0x02
    public static let semiMT = 0x03
}

/// One evdev event, from any evdev-shaped source.
public struct EvdevEvent: Equatable, Sendable {
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}
