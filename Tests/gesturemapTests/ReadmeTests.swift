import Foundation
import Testing

/// The README's tour shows real output; these keep it true.
@Suite("README examples", .serialized)
struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The fenced block of `language` that follows `marker`.
    static func block(after marker: String, language: String, in text: String) -> String? {
        guard let m = text.range(of: marker),
              let open = text.range(of: "```\(language)\n", range: m.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test("step 4 shows what step 3 prints")
    func tourOutput() throws {
        let text = try Self.readme()
        let shown = try #require(Self.block(after: "**4. Read the output.**", language: "json", in: text))
        let result = try Binary.synthThenRun(
            ["two-finger swipe left", "two-finger swipe left", "two-finger swipe right"], seed: 1,
            run: ["--rules", "examples/pager.lua"])
        #expect(result.stdout == shown)
    }

    @Test("step 5's hand-written events give the line shown")
    func handWrittenEvents() throws {
        let text = try Self.readme()
        let shown = try #require(Self.block(after: "**5. Your own events.**", language: "sh", in: text))
        let events = shown.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "'"), let close = line.lastIndex(of: "'"), open < close else { return nil }
            let event = String(line[line.index(after: open)..<close])
            return event.hasPrefix("{") ? event : nil
        }
        #expect(events.count == 4)
        let expected = try #require(shown.split(separator: "\n").last { $0.hasPrefix("# ") }).dropFirst(2)
        let result = try Binary.run(["run"], stdin: Data((events.joined(separator: "\n") + "\n").utf8))
        #expect(result.stdout == expected + "\n")
    }

    @Test("Mouse gestures: synth's strokes through explain print what the tour shows")
    func mouseTour() throws {
        let text = try Self.readme()
        let shown = try #require(Self.block(after: "### Mouse gestures and touchpad clicks", language: "sh", in: text))
        let expected = shown.split(separator: "\n").filter { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
        #expect(expected.count == 2)
        let synth = try Binary.run(["synth", "right-drag left", "right-drag up"])
        let result = try Binary.run(["explain", "--rules", "examples/mouse.lua", "-"], stdin: Data(synth.stdout.utf8))
        #expect(result.lines.filter { $0.hasPrefix("press ") } == expected, "\(result.stdout)")
    }

    @Test("the rule in step 1 is examples/pager.lua's")
    func pagerExample() throws {
        let text = try Self.readme()
        let shown = try #require(Self.block(after: "**1. Write a rule.**", language: "lua", in: text))
        let file = try String(contentsOf: Binary.packageRoot.appendingPathComponent("examples/pager.lua"), encoding: .utf8)
        for line in shown.split(separator: "\n") where line.hasPrefix("on(") {
            #expect(file.contains(line), "\(line)")
        }
    }

    @Test("Author tools: explain's output is what it prints on the real recording", .enabled(if: FileManager.default.fileExists(atPath: Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real/chromeos-autotest-firmware_TouchMTB").path), "../shared/data/real is absent"))
    func authorToolsExplain() throws {
        let text = try Self.readme()
        let shown = try #require(Self.block(after: "--rules examples/touchpad.lua\n```\n", language: "", in: text))
        let result = try Binary.run(["explain", "../shared/data/real/chromeos-autotest-firmware_TouchMTB/data/two_finger_tracking.diagonal.slow.dat",
                                     "--rules", "examples/touchpad.lua"])
        #expect(result.status == 0)
        #expect(result.stdout == shown)
        #expect(text.contains("![A slow two-finger drag"))
        #expect(FileManager.default.fileExists(atPath: Binary.packageRoot.appendingPathComponent("docs/images/two_finger_tracking.diagonal.slow.png").path))
    }
}
