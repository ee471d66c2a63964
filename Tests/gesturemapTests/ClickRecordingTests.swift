import Foundation
import Testing

/// Physical clicks in real touchpads' recordings (../shared/data/real/evemu-devices,
/// whose SOURCE.md states them): each is a click of the stated finger count.
@Suite("Physical clicks in real recordings")
struct ClickRecordingTests {
    static let folder = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real/evemu-devices/touchpads")

    @Test("each recorded click is a click of its stated fingers: the Cypress's 2- and 3-finger presses (semi-mt, the third finger only in BTN_TOOL_TRIPLETAP, put down after the other two) and the bcm5974's 1-, 2- and 3-finger clicks (protocol A)",
          arguments: [
            ("CyPS2 Cypress Trackpad.two_finger_press.events", [2]),
            ("CyPS2 Cypress Trackpad.three_finger_press.events", [3]),
            ("bcm5974.three-finger-click.events", [1, 2, 3]),
          ])
    func clicks(file: String, fingers: [Int]) throws {
        let path = Self.folder.appendingPathComponent(file).path
        guard FileManager.default.fileExists(atPath: path) else { try Test.cancel("\(file) is not here (\(Self.folder.path))") }
        let rules = try Binary.temporaryFile("clicks.lua", """
            on("any-finger click", function(g) emit("click", { fingers = g.fingers }) end)
            on("any-finger tap", function(g) emit("tap") end)

            """)
        let result = try Binary.run(["run", "--rules", rules.path, path])
        #expect(result.status == 0)
        let got = result.lines.compactMap(Binary.json).map { ($0["action"] as? String ?? "", $0["fingers"] as? Int ?? 0) }
        #expect(got.map(\.0) == Array(repeating: "click", count: fingers.count), "\(result.stdout)")
        #expect(got.map(\.1) == fingers)
    }
}
