import Foundation
import Testing

@Suite("The stroke threshold and timeout as config keys, through the binary")
struct MouseStrokeConfigTests {
    @Test("check takes stroke_threshold and stroke_timeout in range, and names each value out of range at its line")
    func ranges() throws {
        let good = try Binary.temporaryFile("mouse-keys.lua", """
        config{ stroke_threshold = 1.5, stroke_timeout = 0.4 }
        on({ kind = "stroke", direction = "left" }, function(g) end)

        """)
        let accepted = try Binary.run(["check", good.path])
        #expect(accepted.errorLines == ["\(good.path): ok"])
        #expect(accepted.status == 0)

        let bad = try Binary.temporaryFile("mouse-keys-bad.lua", """
        config{ stroke_threshold = 0 }
        config{ stroke_threshold = 6 }
        config{ stroke_timeout = 0.01 }
        config{ stroke_timeout = 10 }

        """)
        let refused = try Binary.run(["check", bad.path])
        #expect(refused.status == 1)
        #expect(refused.errorLines == [
            "\(bad.path):1: config key \"stroke_threshold\" must be between 0.1 and 5 mm, not 0",
            "\(bad.path):2: config key \"stroke_threshold\" must be between 0.1 and 5 mm, not 6",
            "\(bad.path):3: config key \"stroke_timeout\" must be between 0.03 and 5 s, not 0.01",
            "\(bad.path):4: config key \"stroke_timeout\" must be between 0.03 and 5 s, not 10",
        ])
    }
}
