import Foundation
import GestureInput
import Glibc
import Testing

/// Every user of uinput gets its problems in the same words, from one mapping
/// of the system's errors, each with its own way out.
@Suite("uinput access: one error, one wording")
struct UinputAccessErrorTests {
    static let device = "/dev/input/event5"
    static let seat = "the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, \(UinputAdvice.copyRule)) and log in again at the seat"
    static let kiosk = "a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build)"
    static let load = "load the uinput module (sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/uinput.conf), give yourself access with the udev rule examples/udev/70-gesturemap.rules"
    static let readBeside = "run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"

    static let texts: [(UinputAccessError, String)] = [
        (.missing(.key, uinput: "/dev/uinput"),
         "key() needs /dev/uinput, which does not exist; \(load), or run with --dry-run to print the keys instead"),
        (.missing(.pointer, uinput: "/dev/uinput"),
         "pointer needs /dev/uinput, which does not exist; \(load), or run with --dry-run to print the pointer events instead"),
        (.missing(.touchpad, uinput: "/dev/uinput"),
         "touchpad needs /dev/uinput, which does not exist; \(load), or run with --dry-run to print the touchpad events instead"),
        (.missing(.share(device: device), uinput: "/dev/uinput"),
         "--share needs /dev/uinput, which does not exist, to give the desktop its copy of /dev/input/event5; \(load), or \(readBeside)"),
        (.denied(.key, uinput: "/dev/uinput"),
         "key() needs write access to /dev/uinput; \(seat); \(kiosk); or run with --dry-run to print the keys instead"),
        (.denied(.pointer, uinput: "/dev/uinput"),
         "pointer needs write access to /dev/uinput; \(seat); \(kiosk); or run with --dry-run to print the pointer events instead"),
        (.denied(.touchpad, uinput: "/dev/uinput"),
         "touchpad needs write access to /dev/uinput; \(seat); \(kiosk); or run with --dry-run to print the touchpad events instead"),
        (.denied(.share(device: "each touch device"), uinput: "/dev/uinput"),
         "--share needs write access to /dev/uinput to give the desktop its copy of each touch device; \(seat); \(kiosk); or \(readBeside)"),
        (.failed(.key, uinput: "/tmp/u", reason: "Inappropriate ioctl for device"),
         "key() could not set up a virtual keyboard on /tmp/u: Inappropriate ioctl for device"),
        (.failed(.pointer, uinput: "/tmp/u", reason: "Inappropriate ioctl for device"),
         "pointer could not set up a virtual pointer on /tmp/u: Inappropriate ioctl for device"),
        (.failed(.touchpad, uinput: "/tmp/u", reason: "Inappropriate ioctl for device"),
         "touchpad could not set up a virtual touchpad on /tmp/u: Inappropriate ioctl for device"),
        (.failed(.share(device: device), uinput: "/dev/uinput", reason: "it is not being read"),
         "--share could not set up the desktop's copy of /dev/input/event5 on /dev/uinput: it is not being read"),
        (.stopped(.key, reason: nil), "the virtual keyboard stopped taking events"),
        (.stopped(.pointer, reason: nil), "the virtual pointer stopped taking events"),
        (.stopped(.touchpad, reason: nil), "the virtual touchpad stopped taking events"),
        (.stopped(.share(device: device), reason: "Input/output error"),
         "the desktop's copy of /dev/input/event5 stopped taking events: Input/output error"),
    ]

    @Test("each case, for each user, in its exact words", arguments: texts)
    func text(error: UinputAccessError, expected: String) {
        #expect(error.message == expected)
        #expect("\(error)" == expected)
    }

    @Test("the seat's fix copies the rule from the checkout this build runs from, and names no group to join")
    func copyRule() {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        #expect(UinputAdvice.copyRule == "sudo cp \(root)/examples/udev/70-gesturemap.rules /etc/udev/rules.d/ && sudo udevadm trigger")
        for (error, _) in Self.texts {
            #expect(!error.message.contains("usermod") && !error.message.contains(" group"), "\(error)")
        }
    }

    @Test("no node is missing, no access is denied, anything else failed with the system's words",
          arguments: [(ENOENT, "missing"), (ENODEV, "missing"), (ENXIO, "missing"), (EACCES, "denied"), (EPERM, "denied"),
                      (EIO, "failed: Input/output error"), (ENOTTY, "failed: Inappropriate ioctl for device")])
    func errnoMapping(errno: Int32, kind: String) {
        let expected: UinputAccessError
        switch kind {
        case "missing": expected = .missing(.pointer, uinput: "/dev/uinput")
        case "denied": expected = .denied(.pointer, uinput: "/dev/uinput")
        default: expected = .failed(.pointer, uinput: "/dev/uinput", reason: String(kind.dropFirst("failed: ".count)))
        }
        #expect(UinputAccessError(errno: errno, user: .pointer, uinput: "/dev/uinput") == expected)
    }

    @Test("the user that needed uinput is carried in every case")
    func user() {
        #expect(Self.texts.map(\.0.user) == [.key, .pointer, .touchpad, .share(device: Self.device)]
            + [.key, .pointer, .touchpad, .share(device: "each touch device")]
            + [.key, .pointer, .touchpad, .share(device: Self.device)]
            + [.key, .pointer, .touchpad, .share(device: Self.device)])
    }
}
