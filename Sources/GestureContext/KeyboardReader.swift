import Glibc
import CEvdev
import GestureSystem

/// Which keyboards count, decided from what the kernel says about a device.
public struct KeyboardIdentity: Equatable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
    }

    /// gesturemap's own uinput keyboard (GestureActions' VirtualKeyboard): keys
    /// it types must not count as held or as typing.
    public static let engineKeyboardName = "gesturemap virtual keyboard"
    static let busVirtual: UInt16 = 0x06
    static let busI8042: UInt16 = 0x11

    public var isEngineKeyboard: Bool {
        name == KeyboardIdentity.engineKeyboardName || (bus == KeyboardIdentity.busVirtual && vendor == 0x1d6b && product == 0x6d67)
    }

    /// A laptop's own keyboard: on the PS/2 controller (i8042), as libinput's
    /// default quirks say. Others (USB, Bluetooth) are external; names listed in
    /// `builtInNames` count as built-in whatever their bus.
    public func isBuiltIn(builtInNames: [String] = []) -> Bool {
        bus == KeyboardIdentity.busI8042 || builtInNames.contains(name)
    }
}

/// One keyboard: a live /dev/input node, or (in tests, and for recordings) a
/// file or FIFO of the same `struct input_event` records. Reads without
/// blocking when its descriptor is readable, keeping the held keys.
public final class KeyboardReader {
    public let path: String
    public let identity: KeyboardIdentity
    public let isBuiltIn: Bool
    public let fd: Int32
    public private(set) var keys = KeyState()
    /// A live device: EVIOCGKEY works, and resynchronizes after SYN_DROPPED.
    public let isLive: Bool
    private var pending: [UInt8] = []
    private var dropped = false
    private static let recordSize = Int(gm_input_event_size())

    public enum OpenError: Error, Equatable, Sendable {
        case cannotOpen(String, String)
        case notKeyboard(String)
        case engineKeyboard(String)

        public var message: String {
            switch self {
            case let .cannotOpen(path, reason): return "\(path): \(reason)"
            case .notKeyboard(let path): return "\(path): not a keyboard (it has no letter keys)"
            case .engineKeyboard(let path): return "\(path): gesturemap's own virtual keyboard; its keys are not read"
            }
        }
    }

    /// Opens a live keyboard node: its name and bus, the keys held now
    /// (EVIOCGKEY), events on CLOCK_MONOTONIC like the touch devices.
    public init(devicePath path: String, builtInNames: [String] = []) throws(OpenError) {
        let fd = gm_evdev_open(path, 1)
        guard fd >= 0 else { throw .cannotOpen(path, String(cString: strerror(-fd))) }
        var name = [CChar](repeating: 0, count: 256)
        guard gm_evdev_name(fd, &name, name.count) >= 0 else {
            Glibc.close(fd)
            throw .cannotOpen(path, "not an evdev device")
        }
        var bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0
        _ = gm_evdev_id(fd, &bus, &vendor, &product, &version)
        let identity = KeyboardIdentity(name: String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                        bus: bus, vendor: vendor, product: product)
        guard !identity.isEngineKeyboard else {
            Glibc.close(fd)
            throw .engineKeyboard(path)
        }
        var bits = [UInt8](repeating: 0, count: KeyCode.count / 8)
        guard gm_evdev_bits(fd, 1 /* EV_KEY */, &bits, bits.count) >= 0, KeyboardReader.hasLetterKeys(bits) else {
            Glibc.close(fd)
            throw .notKeyboard(path)
        }
        _ = gm_evdev_clock_monotonic(fd)
        self.path = path
        self.fd = fd
        self.identity = identity
        self.isBuiltIn = identity.isBuiltIn(builtInNames: builtInNames)
        self.isLive = true
        _ = resync(at: MonotonicClock.now())
    }

    /// Reads `struct input_event` records from an open descriptor (a file, FIFO
    /// or pipe), through the same path as a device; the identity is given.
    public init(fd: Int32, path: String, identity: KeyboardIdentity, builtIn: Bool) {
        self.fd = fd
        self.path = path
        self.identity = identity
        self.isBuiltIn = builtIn
        self.isLive = false
    }

    deinit { Glibc.close(fd) }

    /// Whether a key bitmap has the letter row (KEY_Q..KEY_P), as libinput
    /// decides what is a keyboard.
    static func hasLetterKeys(_ bits: [UInt8]) -> Bool {
        for code in Int(KeyCode.q)...Int(KeyCode.p) {
            guard code / 8 < bits.count else { return false }
            let mask = UInt8(1) << UInt8(code % 8)
            if bits[code / 8] & mask == 0 { return false }
        }
        return true
    }

    public enum ReadResult: Equatable, Sendable {
        case events([KeyEvent])
        /// The end of a file, or the device went away.
        case closed(String?)
    }

    /// One turn of the loop reads at most this many buffers of 4 KiB: a
    /// keyboard that never stops (a flood from uinput, a long file) cannot
    /// hold the loop; the rest waits for the next turn, as poll says it is there.
    public static let readsPerTurn = 16

    /// Reads what is there, up to `readsPerTurn` buffers: the key transitions, in order.
    public func handleReadable() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var events: [KeyEvent] = []
        var reads = 0
        while reads < KeyboardReader.readsPerTurn {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return .events(events) }
                let reason = errno == ENODEV ? "unplugged" : String(cString: strerror(errno))
                return events.isEmpty ? .closed(reason) : .events(events)
            }
            if n == 0 { return events.isEmpty ? .closed(nil) : .events(events) }
            reads += 1
            pending += buffer[0..<n]
            events += decode()
        }
        return .events(events)
    }

    private func decode() -> [KeyEvent] {
        let size = KeyboardReader.recordSize
        var events: [KeyEvent] = []
        var offset = 0
        while pending.count - offset >= size {
            let record = InputRecord(bytes: pending, at: offset, size: size)
            offset += size
            switch (record.type, record.code) {
            case (0, 3): // EV_SYN / SYN_DROPPED: events until the next report are lost
                dropped = true
            case (0, 0): // SYN_REPORT
                if dropped {
                    dropped = false
                    events += resync(at: record.time)
                }
            case (1, _) where !dropped: // EV_KEY
                if let event = keys.apply(code: record.code, value: record.value, time: record.time) { events.append(event) }
            default:
                break
            }
        }
        pending.removeFirst(offset)
        return events
    }

    /// Re-reads the held keys from the kernel (a live device only).
    private func resync(at time: Double) -> [KeyEvent] {
        guard isLive else { return [] }
        var bitmap = [UInt8](repeating: 0, count: KeyCode.count / 8)
        guard gm_evdev_key_state(fd, &bitmap, bitmap.count) >= 0 else { return [] }
        return keys.resync(bitmap: bitmap, time: time)
    }
}

/// One `struct input_event`: the time (two longs), type, code and value.
struct InputRecord {
    var time: Double
    var type: UInt16
    var code: UInt16
    var value: Int32

    init(bytes: [UInt8], at offset: Int, size: Int) {
        func integer<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            var v: T = 0
            for i in 0..<MemoryLayout<T>.size { v |= T(truncatingIfNeeded: bytes[offset + at + i]) << (8 * i) }
            return v
        }
        // 24 bytes with 64-bit longs, 16 with 32-bit ones.
        let half = (size - 8) / 2
        let seconds = half == 8 ? Double(integer(0, Int64.self)) : Double(integer(0, Int32.self))
        let micros = half == 8 ? Double(integer(8, Int64.self)) : Double(integer(4, Int32.self))
        time = seconds + micros / 1e6
        type = integer(2 * half, UInt16.self)
        code = integer(2 * half + 2, UInt16.self)
        value = integer(2 * half + 4, Int32.self)
    }
}
