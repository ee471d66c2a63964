import Foundation
import Testing

/// doctor tells a user who shares a device how to get it back.
@Suite("doctor: the way out of sharing")
struct DoctorWayOutTests {
    static let line = "the way out of sharing: Backspace+Escape+Enter held together give every device back to the desktop until pressed again; a touch no claim has taken 0.4 s after it landed is the desktop's anyway"

    @Test("rules that share get the escape chord and the claim's time limit named; rules that do not, not")
    func named() throws {
        let shared = try Binary.temporaryFile("shared.lua", "config{ share = true }\non(\"tap\", function(g) end)\n")
        let plain = try Binary.temporaryFile("plain.lua", "on(\"tap\", function(g) end)\n")
        let a = try Binary.run(["doctor", "--rules", shared.path])
        #expect(a.stdout.contains(Self.line), "\(a.stdout)")
        let b = try Binary.run(["doctor", "--rules", plain.path])
        #expect(!b.stdout.contains("the way out of sharing"), "\(b.stdout)")
    }
}
