import Foundation
import GestureEngine
import GestureInput
import Testing

// The Wacom finger-touch recordings in evemu-devices/tablets: one-finger circles
// (no swipe: a swipe is a roughly straight stroke) and the scroll and swipe
// strokes (each fires its swipe). The descriptions give no resolution.

private struct Tablet: Sendable, CustomTestStringConvertible {
    var device: String
    /// How the events files are named after the device.
    var separator: String
    /// Units per mm estimated from each device's size: the ISDv4 E6 as a 12.5"
    /// 16:9 tablet-PC panel (277 × 156 mm over 2776 × 1569), the Intuos5 touch
    /// M's active area as 224 × 140 mm, the Bamboo 16FG 4x5's as about
    /// 125 × 85 mm, both over 4096 × 4096.
    var physical: (x: Double, y: Double)
    /// libinput's "typical" 69 × 50 mm, the last resort for a size.
    var typical: (x: Double, y: Double)

    var testDescription: String { device }

    func files(_ gesture: String) -> [String] {
        [evemuPath("tablets/\(device).desc"), evemuPath("tablets/\(device)\(separator)\(gesture).events")]
    }
}

private let tablets = [
    Tablet(device: "Wacom ISDv4 E6 Finger", separator: ".", physical: (10.0, 10.1), typical: (40.2, 31.4)),
    Tablet(device: "Wacom Intuos5 touch M Finger", separator: " ", physical: (18.3, 29.3), typical: (59.4, 81.9)),
    Tablet(device: "Wacom Bamboo 16FG 4x5 Finger", separator: " ", physical: (32.8, 48.2), typical: (59.4, 81.9)),
]

private let swipeRules = evdevRules(allSwipes + ["swipe up-left", "swipe up-right", "swipe down-left", "swipe down-right"])
private let swipeAndPanRules = evdevRules(allSwipes + ["pan", "2-finger pan"])
private let strokes = [("single-top-swipe", "1 right"), ("double-top-swipe", "2 right"), ("single-center-scroll", "1 down"), ("double-center-scroll", "2 down")]
/// CSS pixels, the scale these tablets were read at before the engine gave
/// devices with no resolution a typical size.
private let cssPixels = (x: 96 / 25.4, y: 96 / 25.4)

@Suite("Tablet strokes in real recordings", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real/evemu-devices beside the package"))
struct TabletStrokeRecordingTests {
    @Test("single-center-circle: no swipe with no flags, at the device's physical size, or at a typical touchpad's", arguments: tablets)
    fileprivate func circleIsNoSwipe(tablet: Tablet) throws {
        for resolution in [nil, tablet.physical, tablet.typical] {
            let run = try runRecording(tablet.files("single-center-circle"), rules: swipeRules) { if let resolution { $0.resolution = resolution } }
            #expect(run.status == .ok)
            #expect(run.framesProcessed > 80)
            #expect(run.gestures.isEmpty, "at \(resolution.map { "\($0) units/mm" } ?? "no flags"): \(run.gestures)")
        }
    }

    /// The stroke tests judge shape: at the CSS-pixel scale every stroke file is
    /// a quick stroke, and a straight one, so each must still be a swipe.
    @Test("scroll and swipe strokes each fire their swipe at the CSS-pixel scale", arguments: tablets)
    fileprivate func strokesFire(tablet: Tablet) throws {
        for (gesture, expected) in strokes {
            let run = try runRecording(tablet.files(gesture), rules: swipeRules) { $0.resolution = cssPixels }
            #expect(run.status == .ok)
            #expect(run.gestures.map { "\($0.fingers) \($0.direction ?? "-")" } == [expected], "\(gesture): \(run.gestures)")
        }
    }

    /// With no flags the ISDv4 panel is taken as a typical 13.3" touchscreen,
    /// close to its real size, and the Intuos5 and Bamboo at their sizes in
    /// libwacom's database when it is installed. Their strokes rest 0.2–0.4 s
    /// and creep before they go, and last up to 1.85 s: a swipe's clock starts
    /// when the hand starts to stroke. Each is its pan and its swipe.
    @Test("with no flags every stroke is its swipe (and its pan)", arguments: tablets)
    fileprivate func strokesWithNoFlags(tablet: Tablet) throws {
        if !tablet.device.contains("ISDv4") && TabletDatabase.shared.size(of: DeviceID(bus: 3, vendor: 0x56A, product: 0x27)) == nil {
            try Test.cancel("libwacom's database (Debian's libwacom-common) is not installed, so the tablet's size is unknown")
        }
        for (gesture, expected) in strokes {
            let run = try runRecording(tablet.files(gesture), rules: swipeAndPanRules)
            #expect(run.status == .ok)
            let got = run.gestures.map { "\($0.kind) \($0.fingers) \($0.direction ?? "-")" }
            #expect(got == ["pan \(expected)", "swipe \(expected)"], "\(gesture): \(got)")
        }
    }

    /// At the CSS-pixel scale the Bamboo circle strokes past the commit speed on
    /// an arc that has wound; it must not fire.
    @Test("the Bamboo circle at the CSS-pixel scale: no swipe")
    func bambooCircleAtCSSPixels() throws {
        let run = try runRecording(tablets[2].files("single-center-circle"), rules: swipeRules) { $0.resolution = cssPixels }
        #expect(run.gestures.isEmpty, "\(run.gestures)")
    }
}
