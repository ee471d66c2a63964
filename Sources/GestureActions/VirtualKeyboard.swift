import Glibc
import CEvdev

/// Where key events go: a uinput device, or (for --dry-run and tests) something readable.
public protocol KeySink: AnyObject {
    func write(type: UInt16, code: UInt16, value: Int32) -> Bool
}

/// A uinput virtual keyboard. Typing through the kernel works under X11 and
/// Wayland alike.
public final class VirtualKeyboard: KeySink {
    public let fd: Int32

    public enum SetupError: Error, Equatable {
        case missing(String)
        case denied(String)
        case failed(String, String)

        public var message: String {
            switch self {
            case .missing(let path):
                return "key() needs \(path), which does not exist; load the uinput module (sudo modprobe uinput, and list it in /etc/modules-load.d/), give yourself access with the udev rule examples/udev/70-gesturemap.rules, or run with --dry-run to print the keys instead"
            case .denied(let path):
                return "key() needs write access to \(path); the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build); or run with --dry-run to print the keys instead"
            case let .failed(path, reason):
                return "key() could not set up a virtual keyboard on \(path): \(reason)"
            }
        }
    }

    /// /dev/uinput, or `GESTUREMAP_UINPUT`.
    public static var path: String {
        if let p = getenv("GESTUREMAP_UINPUT") { return String(cString: p) }
        return "/dev/uinput"
    }

    /// A desktop opens a new keyboard a little after it appears, and keys
    /// typed before that are lost: a keyboard made at start has that moment
    /// before any gesture, and one made at first use has its first keys wait
    /// (the engine's `PacketAgenda`).
    public init(path: String = VirtualKeyboard.path, keys: [UInt16] = KeyCombo.allCodes) throws(SetupError) {
        let fd = gm_uinput_open(path)
        guard fd >= 0 else {
            switch -fd {
            case ENOENT, ENODEV, ENXIO: throw .missing(path)
            case EACCES, EPERM: throw .denied(path)
            default: throw .failed(path, String(cString: strerror(-fd)))
            }
        }
        for code in keys {
            let r = gm_uinput_enable_key(fd, UInt32(code))
            if r < 0 {
                close(fd)
                throw .failed(path, String(cString: strerror(-r)))
            }
        }
        let r = gm_uinput_create(fd, "gesturemap virtual keyboard")
        guard r >= 0 else {
            close(fd)
            throw .failed(path, String(cString: strerror(-r)))
        }
        self.fd = fd
    }

    deinit {
        _ = gm_uinput_destroy(fd)
        close(fd)
    }

    public func write(type: UInt16, code: UInt16, value: Int32) -> Bool {
        gm_uinput_emit(fd, type, code, value) >= 0
    }
}
