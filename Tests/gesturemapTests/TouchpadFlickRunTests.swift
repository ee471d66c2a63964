import Foundation
import Testing

/// Short fast swipes on a touchpad, through the binary: `synth
/// --tail flick --touchpad` draws them with a real pad's landing reports (a few
/// mm off) and its contacts fading out before they lift; `run` must decide each,
/// with its fingers and direction, while its fingers are down.
@Suite("Touchpad flicks, through the binary")
struct TouchpadFlickRunTests {
    static let rules = """
        for f = 1, 4 do
          for _, d in ipairs({ "left", "right", "up", "down" }) do
            on(f .. "-finger swipe " .. d, function(g) emit("swipe", { fingers = g.fingers, direction = g.direction }) end)
          end
        end
        """

    /// Each touch sequence's first landing and last lift, in the stream's clock.
    static func sequences(_ ndjson: String) -> [(start: Double, end: Double)] {
        var result: [(start: Double, end: Double)] = []
        var down = Set<Int>()
        var start = 0.0
        for line in ndjson.split(separator: "\n") {
            guard let o = Binary.json(String(line)), let ev = o["ev"] as? String, let t = o["t"] as? Double, let id = o["id"] as? Int else { continue }
            if ev == "down" {
                if down.isEmpty { start = t }
                down.insert(id)
            } else if ev == "up", down.remove(id) != nil, down.isEmpty {
                result.append((start, t))
            }
        }
        return result
    }

    @Test("80 touchpad flicks of 1-4 fingers: each is the swipe it was, all but one decided before its last finger lifts")
    func flicksDecidedWhileDown() throws {
        let synth = try Binary.run(["synth", "--tail", "flick", "--touchpad", "--count", "80", "--seed", "3"])
        #expect(synth.status == 0, "\(synth.stderr)")
        let stream = try Binary.temporaryFile("flicks.ndjson", synth.stdout)
        let rules = try Binary.temporaryFile("swipes.lua", Self.rules)
        let run = try Binary.run(["run", "--rules", rules.path, stream.path])
        #expect(run.status == 0, "\(run.stderr)")
        let swipes = run.lines.compactMap(Binary.json).filter { $0["action"] as? String == "swipe" }
        let sequences = Self.sequences(synth.stdout)
        #expect(sequences.count == 80)
        // Swipe k goes the k-th of right, down, left, up (mod 4) with 1, 2, 3 or 4 fingers by fours.
        let directions = ["right", "down", "left", "up"]
        var wrong: [String] = []
        var early = 0
        for (k, s) in sequences.enumerated() {
            let within = swipes.filter { ($0["t"] as? Double).map { $0 >= s.start && $0 <= s.end + 1e-6 } ?? false }
            let expected = "\(k / 4 % 4 + 1) \(directions[k % 4])"
            let got = within.map { "\($0["fingers"] as? Int ?? 0) \($0["direction"] as? String ?? "?")" }
            if got != [expected] { wrong.append("flick \(k): \(expected) gave \(got)") }
            if let t = within.first?["t"] as? Double, t < s.end { early += 1 }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(early >= 79, "\(early) of 80 before the last lift")
    }
}
