#if canImport(Glibc)
import Glibc
#endif
@testable import GestureInput
import Testing

/// What a user who may not read a touch device is told: the fix for the user
/// at the seat (the udev rule) and for a kiosk (the gesturemap group), and
/// never the input group, which Debian also lets read every keyboard.
@Suite("Device access messages")
struct DeviceAccessMessageTests {
    static let fix = "permission denied; the udev rule 70-gesturemap.rules lets the user logged in at the seat read touch devices: install it (the package does; from a build, copy examples/udev/70-gesturemap.rules to /etc/udev/rules.d/ and run sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat adds its user to the gesturemap group instead (sudo usermod -aG gesturemap USER)"

    @Test("EACCES and EPERM on open are a permission problem whose message names the udev rule, the seat and the kiosk's group", arguments: [EACCES, EPERM])
    func permissionDenied(code: Int32) {
        let error = DeviceError.from(errno: code, path: "/dev/input/event7")
        #expect(error == .permissionDenied("/dev/input/event7"))
        #expect(error.message == "/dev/input/event7: " + Self.fix)
    }

    @Test("with no touch device readable, the scan's explanation is the same fix")
    func noneReadable() {
        var scan = DeviceScanner.Scan()
        scan.problems = [.permissionDenied("/dev/input/event3")]
        #expect(DeviceScanner.accessDenied(scan))
        #expect(DeviceScanner.explainNone(scan, directory: "/dev/input") == "no touch device can be read: /dev/input/event3: " + Self.fix)
    }

    @Test("the hint asks for no input group membership")
    func noInputGroup() {
        let message = DeviceError.permissionDenied("/dev/input/event0").message
        #expect(!message.contains(" input group"))
        #expect(!message.contains("-aG input"))
        #expect(message.contains("sudo usermod -aG gesturemap USER"))
    }
}
