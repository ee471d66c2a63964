import Foundation
import GestureCore
@testable import GestureInput
import Testing

// Devices that give no resolution: each step of the order (kernel, --size,
// udev, the display's EDID, a typical size), with fake udev and sysfs trees
// and an EDID built here.

/// A 128-byte EDID 1.4 block: `cm` in bytes 21-22, and a first detailed timing
/// descriptor with `mm` (pixel clock `clock`, 0 for none), checksum fixed.
func edid(cm: (UInt8, UInt8), mm: (Int, Int), clock: UInt16 = 14_850) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: 128)
    b[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
    b[18] = 1
    b[19] = 4
    b[21] = cm.0
    b[22] = cm.1
    b[54] = UInt8(clock & 0xFF)
    b[55] = UInt8(clock >> 8)
    b[66] = UInt8(mm.0 & 0xFF)
    b[67] = UInt8(mm.1 & 0xFF)
    b[68] = UInt8((mm.0 >> 8) << 4 | (mm.1 >> 8))
    let sum = b[0..<127].reduce(0) { ($0 + Int($1)) % 256 }
    b[127] = UInt8((256 - sum) % 256)
    return b
}

/// A scratch tree for fake /sys and /run/udev/data, removed by the caller.
struct FakeTree {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-sizes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func write(_ relative: String, _ text: String) throws { try write(relative, Array(text.utf8)) }

    /// A display connector under class/drm.
    func display(_ name: String, connected: Bool = true, edid blob: [UInt8]?) throws {
        try write("sys/class/drm/\(name)/status", connected ? "connected\n" : "disconnected\n")
        try write("sys/class/drm/\(name)/edid", blob ?? [])
    }

    var probe: DeviceSizeProbe { DeviceSizeProbe(udev: UdevDatabase(root: root.appendingPathComponent("udev").path, sysfs: root.appendingPathComponent("sys").path)) }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// 0..2000 x 0..1400 with no resolution, as the ALPS pad.
private func description(touchscreen: Bool, resolution: Double? = nil) -> EvdevDescription {
    var d = EvdevDescription(name: "pad")
    d.axes[ABS.mtPositionX] = AxisInfo(minimum: 0, maximum: 2000, resolution: resolution)
    d.axes[ABS.mtPositionY] = AxisInfo(minimum: 0, maximum: 1400, resolution: resolution)
    if touchscreen { d.properties = 1 << UInt64(InputProperty.direct) }
    return d
}

private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

@Suite("Devices that give no size")
struct DeviceSizeTests {
    // MARK: EDID

    @Test("EDID: the detailed timing's millimetres when they agree with the centimetres, else the centimetres")
    func edidSizes() {
        #expect(DeviceSizeProbe.edidSize(edid(cm: (31, 17), mm: (309, 174)))! == (309, 174))
        // The timing holds an aspect ratio (16 x 9), not a size: the centimetres stand.
        #expect(DeviceSizeProbe.edidSize(edid(cm: (31, 17), mm: (16, 9)))! == (310, 170))
        // No detailed timing (pixel clock 0).
        #expect(DeviceSizeProbe.edidSize(edid(cm: (52, 29), mm: (0, 0), clock: 0))! == (520, 290))
        // Sizes over 255 mm use the high nibbles of byte 68.
        #expect(DeviceSizeProbe.edidSize(edid(cm: (60, 34), mm: (598, 336)))! == (598, 336))
    }

    @Test("EDID: no size (a projector's 0), an aspect ratio in place of a size, a bad checksum or header, a short blob: none")
    func edidWithoutSize() {
        #expect(DeviceSizeProbe.edidSize(edid(cm: (0, 0), mm: (0, 0))) == nil)
        #expect(DeviceSizeProbe.edidSize(edid(cm: (0, 79), mm: (0, 0))) == nil)
        var corrupt = edid(cm: (31, 17), mm: (309, 174))
        corrupt[100] &+= 1
        #expect(DeviceSizeProbe.edidSize(corrupt) == nil)
        var header = edid(cm: (31, 17), mm: (309, 174))
        header[0] = 1
        #expect(DeviceSizeProbe.edidSize(header) == nil)
        #expect(DeviceSizeProbe.edidSize(Array(edid(cm: (31, 17), mm: (309, 174)).prefix(100))) == nil)
        #expect(DeviceSizeProbe.edidSize([]) == nil)
    }

    @Test("displays: the one connected display; among several the one built-in panel; else none")
    func displays() throws {
        let tree = try FakeTree()
        defer { tree.remove() }
        #expect(tree.probe.displayHint() == nil)
        try tree.display("card0-HDMI-A-1", connected: false, edid: edid(cm: (52, 29), mm: (521, 293)))
        try tree.display("card0-DP-1", edid: edid(cm: (60, 34), mm: (598, 336)))
        #expect(tree.probe.displayHint() == SizeHint(.millimetres(width: 598, height: 336), from: .display(connector: "card0-DP-1")))
        try tree.display("card0-eDP-1", edid: edid(cm: (31, 17), mm: (309, 174)))
        #expect(tree.probe.displayHint() == SizeHint(.millimetres(width: 309, height: 174), from: .display(connector: "card0-eDP-1")))
        try tree.display("card1-eDP-2", edid: edid(cm: (34, 19), mm: (344, 194)))
        #expect(tree.probe.displayHint() == nil, "two built-in panels: no way to tell which one")
    }

    @Test("a connected display whose EDID is empty or garbage is passed over")
    func emptyEDID() throws {
        let tree = try FakeTree()
        defer { tree.remove() }
        try tree.display("card0-eDP-1", edid: [])
        try tree.display("card0-DP-1", edid: Array("garbage".utf8))
        #expect(tree.probe.displayHint() == nil)
    }

    // MARK: udev

    @Test("udev: LIBINPUT_ATTR_RESOLUTION_HINT, then LIBINPUT_ATTR_SIZE_HINT, from c<major>:<minor>")
    func udev() throws {
        let tree = try FakeTree()
        defer { tree.remove() }
        #expect(tree.probe.udevHints(major: 13, minor: 70).isEmpty)
        try tree.write("udev/c13:70", "I:123\nE:ID_INPUT=1\nE:LIBINPUT_ATTR_SIZE_HINT=100x60\nE:LIBINPUT_ATTR_RESOLUTION_HINT=40x38\nG:seat\n")
        #expect(tree.probe.udevHints(major: 13, minor: 70) == [
            SizeHint(.unitsPerMillimetre(x: 40, y: 38), from: .udev(property: "LIBINPUT_ATTR_RESOLUTION_HINT", value: "40x38")),
            SizeHint(.millimetres(width: 100, height: 60), from: .udev(property: "LIBINPUT_ATTR_SIZE_HINT", value: "100x60")),
        ])
        try tree.write("udev/c13:71", "E:LIBINPUT_ATTR_SIZE_HINT=1e300x60\nE:LIBINPUT_ATTR_RESOLUTION_HINT=nanxnan\nE:LIBINPUT_ATTR_SIZE_HINT=x\n")
        #expect(tree.probe.udevHints(major: 13, minor: 71).isEmpty, "values that are no sizes are ignored")
    }

    // MARK: The order

    @Test("the kernel's resolution wins over every stand-in, --resolution over the kernel")
    func kernelFirst() {
        let d = description(touchscreen: false, resolution: 20).deviceInfo
        let hints = [SizeHint(.millimetres(width: 10, height: 10), from: .sizeOption)]
        #expect(UnitConverter(device: d, hints: hints).origin == .device)
        #expect(UnitConverter(device: d, override: (5, 5), hints: hints).origin == .commandLine)
    }

    @Test("without a kernel resolution the first applicable stand-in wins: --size, udev, the display, a typical size")
    func order() {
        let d = description(touchscreen: true).deviceInfo
        let size = SizeHint(.millimetres(width: 200, height: 140), from: .sizeOption)
        let udev = SizeHint(.unitsPerMillimetre(x: 40, y: 40), from: .udev(property: "LIBINPUT_ATTR_RESOLUTION_HINT", value: "40x40"))
        let display = SizeHint(.millimetres(width: 309, height: 174), from: .display(connector: "card0-eDP-1"))
        let typical = SizeHint.typical(touchscreen: true, span: (2000, 1400))
        let all = [size, udev, display, typical]
        for k in 0..<all.count {
            let c = UnitConverter(device: d, hints: Array(all[k...]))
            #expect(c.origin == .hint(all[k]))
        }
        let bySize = UnitConverter(device: d, hints: all)
        #expect(near(bySize.surface?.width, 200) && near(bySize.surface?.height, 140))
        let byUdev = UnitConverter(device: d, hints: [udev])
        #expect(near(byUdev.surface?.width, 50) && near(byUdev.surface?.height, 35))
    }

    @Test("a size needs the axis ranges; without them the next hint that needs none applies, else CSS pixels")
    func sizeWithoutRanges() {
        let none = DeviceInfo()
        let size = SizeHint(.millimetres(width: 200, height: 140), from: .sizeOption)
        let udev = SizeHint(.unitsPerMillimetre(x: 40, y: 40), from: .udev(property: "LIBINPUT_ATTR_RESOLUTION_HINT", value: "40x40"))
        #expect(UnitConverter(device: none, hints: [size]).origin == .cssPixels)
        #expect(UnitConverter(device: none, hints: [size, udev]).origin == .hint(udev))
    }

    @Test("typical sizes: a touchpad is 69 x 50 mm as libinput assumes; a touchscreen is 13.3 inches across with its axes' aspect")
    func typical() {
        #expect(SizeHint.typical(touchscreen: false, span: (2000, 1400)).measure == .millimetres(width: 69, height: 50))
        guard case let .millimetres(w, h) = SizeHint.typical(touchscreen: true, span: (1600, 900)).measure else {
            Issue.record("no size")
            return
        }
        #expect(near((w * w + h * h).squareRoot(), 13.3 * 25.4))
        #expect(near(w / h, 16.0 / 9.0))
    }

    @Test("touchscreen or touchpad, as udev's input_id tells: INPUT_PROP_DIRECT, or BTN_TOUCH without BTN_TOOL_FINGER")
    func kinds() {
        var d = EvdevDescription()
        #expect(!d.isTouchscreen)
        d.keys = [BTN.touch, BTN.toolFinger]
        #expect(!d.isTouchscreen)
        d.keys = [BTN.touch]
        #expect(d.isTouchscreen)
        d.keys = []
        d.properties = 1 << UInt64(InputProperty.direct)
        #expect(d.isTouchscreen)
    }

    @Test("evemu B: lines give the key bits: a touchscreen without INPUT_PROP_DIRECT (N-Trig) gets the touchscreen's size")
    func evemuKeyBits() {
        let text = [
            "N: old touchscreen", "P: 00 00 00 00 00 00 00 00",
            "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00",
            "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 24 00 00 00 00 00 00",
            "A: 35 0 9600 0 0", "A: 36 0 7200 0 0",
            "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0002 0000", "E: 0.000000 0000 0000 0000",
        ].joined(separator: "\n") + "\n"
        var decoder = EvemuDecoder(source: "in")
        _ = drive(&decoder, Array(text.utf8), chunk: nil)
        #expect(decoder.parser.stream.description.keys == [BTN.touch])
        #expect(decoder.converter.origin == .hint(.typical(touchscreen: true, span: (9600, 7200))))
        #expect(decoder.unitsExplanation == "in: the device gives no resolution; using a typical 13.3-inch touchscreen of 270.26 x 202.69 mm, 35.52 units/mm; give --size WxH (mm) to set it")
    }

    @Test("a recording with no resolution gets the typical touchpad; --size replaces it; a kernel resolution ignores --size")
    func recordings() {
        let noResolution = ["N: pad", "A: 35 0 2000 0 0 0", "A: 36 0 1400 0 0 0", "E: 0.000000 0003 0035 100", "E: 0.000000 0000 0000 0000"].joined(separator: "\n") + "\n"
        var typical = EvemuDecoder(source: "in")
        _ = drive(&typical, Array(noResolution.utf8), chunk: nil)
        #expect(near(typical.converter.surface?.width, 69) && near(typical.converter.surface?.height, 50))
        #expect(typical.converter.origin.isGuess)
        #expect(typical.unitsExplanation == "in: the device gives no resolution; using a typical touchpad of 69 x 50 mm, as libinput assumes, 28.99 x 28 units/mm; give --size WxH (mm) to set it")

        var sized = EvemuDecoder(source: "in", size: Surface(width: 100, height: 70))
        _ = drive(&sized, Array(noResolution.utf8), chunk: nil)
        #expect(sized.converter.surface == Surface(width: 100, height: 70))
        #expect(!sized.converter.origin.isGuess)
        #expect(sized.unitsExplanation == "in: resolution 20 units/mm from --size (100 x 70 mm)")

        let withResolution = noResolution.replacingOccurrences(of: " 0 0 0\n", with: " 0 0 10\n")
        var kernel = EvemuDecoder(source: "in", size: Surface(width: 100, height: 70))
        _ = drive(&kernel, Array(withResolution.utf8), chunk: nil)
        #expect(kernel.converter.origin == .device)
        #expect(kernel.converter.surface == Surface(width: 200, height: 140))
    }

    @Test("NDJSON: CSS pixels without a header (the contract), and with a header that gives no resolution unless --size is given")
    func ndjson() {
        let header = #"{"device": {"x": {"min": 0, "max": 1000}, "y": {"min": 0, "max": 500}}}"# + "\n"
        var plain = NDJSONDecoder(source: "in")
        _ = drive(&plain, Array(header.utf8), chunk: nil)
        #expect(plain.converter.origin == .cssPixels)
        var noHeader = NDJSONDecoder(source: "in", size: Surface(width: 100, height: 50))
        _ = drive(&noHeader, Array(#"{"t": 0, "ev": "sync"}"#.utf8) + [0x0A], chunk: nil)
        #expect(noHeader.converter.origin == .cssPixels)
        var sized = NDJSONDecoder(source: "in", size: Surface(width: 100, height: 50))
        _ = drive(&sized, Array(header.utf8), chunk: nil)
        #expect(sized.converter.surface == Surface(width: 100, height: 50))
    }

    @Test("a live device's hints come first from udev, then the display, only for a touchscreen, and not at all with a kernel resolution")
    func liveOrder() throws {
        let tree = try FakeTree()
        defer { tree.remove() }
        try tree.display("card0-eDP-1", edid: edid(cm: (31, 17), mm: (309, 174)))
        // A character device whose number is known: /dev/null (1:3).
        try tree.write("udev/c1:3", "E:LIBINPUT_ATTR_SIZE_HINT=100x60\n")
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        let screen = tree.probe.hints(fd: fd, description: description(touchscreen: true))
        #expect(screen.map(\.origin) == [.udev(property: "LIBINPUT_ATTR_SIZE_HINT", value: "100x60"), .display(connector: "card0-eDP-1")])
        let pad = tree.probe.hints(fd: fd, description: description(touchscreen: false))
        #expect(pad.map(\.origin) == [.udev(property: "LIBINPUT_ATTR_SIZE_HINT", value: "100x60")])
        #expect(tree.probe.hints(fd: fd, description: description(touchscreen: true, resolution: 10)).isEmpty)

        var decoder = RawEventDecoder(source: "dev")
        decoder.describe(description(touchscreen: true), sizeHints: Array(screen.dropFirst()))
        #expect(decoder.converter.surface == Surface(width: 309, height: 174))
        #expect(decoder.unitsExplanation == "dev: the device gives no resolution; using the size of the display on card0-eDP-1, from its EDID (309 x 174 mm), 6.47 x 8.05 units/mm; give --size WxH (mm) to set it")
    }
}
