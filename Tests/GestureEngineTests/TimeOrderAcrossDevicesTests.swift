import Foundation
import GestureCore
import GestureEngine
import GestureSynth
import Testing

/// Actions leave the engine in non-decreasing `t` across devices too.
/// Several files given together are several devices whose clocks overlap; the
/// engine takes their frames earliest first, so that what each device does is
/// unchanged and only the order across them follows time.
@Suite("Time order across devices")
struct TimeOrderAcrossDevicesTests {
    static let rules = """
        -- A Lua kind that waits up to 0.4 s after a lift for a second one.
        recognizer("pair", {
          frame = function(r, f)
            for _, touch in ipairs(f.touches) do
              if touch.phase == "ended" and f.fingers == 1 then
                r.lifts = (r.lifts or 0) + 1
                if r.lifts == 2 then return r:ended() end
                r:deadline(f.t + 0.4)
              end
            end
          end,
          timeout = function(r) r:fail("no second lift") end,
          reset = function(r) r.lifts = nil end,
        })
        on("pair", function(g) emit("pair", { on = g.device }) end, { name = "pair" })
        on("tap", function(g) emit("tap", { on = g.device }) end, { requires_failure_of = "pair" })
        on("double tap", function(g) emit("double", { on = g.device }) end, { name = "double" })
        on("long press", function(g) emit("hold", { on = g.device }) end, { requires_failure_of = "double" })
        on("swipe left", function(g)
          emit("left", { on = g.device })
          -- A timer from the rules, due later in input time.
          after(0.25, function() emit("left later") end)
        end, { name = "left" })
        on("2-finger swipe up", function(g) emit("up", { on = g.device }) end)
        on("pan", { began = function(g) emit("pan", { on = g.device }) end,
                    ended = function(g) emit("pan end", { on = g.device }) end,
                    cancelled = function(g) emit("pan end", { on = g.device }) end },
           { requires_failure_of = "left" })
        on("pinch in", function(g) emit("pinch", { on = g.device }) end)
        """

    static let phrases = ["tap", "double tap", "tap", "two-finger tap", "swipe left", "swipe right", "long press",
                          "pinch in", "2-finger swipe up", "tap"]

    /// A device's stream: `count` gestures at random, with random pauses, and a
    /// device name of its own.
    static func stream(seed: UInt64, count: Int, name: String) -> String {
        var random = SeededRandom(seed: seed &+ 17)
        var synth = Synthesizer(seed: seed)
        var lines = JSONLines()
        lines.line(synth.header().replacingOccurrences(of: "gesturemap synth panel", with: name))
        for _ in 0..<count {
            let phrase = phrases[Int(random.next() % UInt64(phrases.count))]
            guard case .success(let spec) = PhraseParser.parse(phrase) else { continue }
            synth.append(SynthGesture(spec: spec, gap: random.uniform(0.02...0.9)), to: &lines)
        }
        return lines.text
    }

    static func run(_ inputs: [String]) throws -> [String] {
        var options = RunOptions()
        options.inputs = inputs
        options.rulesPath = try temporaryFile("rules.lua", rules)
        let sink = RecordingSink()
        let engine = try #require(Engine(options: options, console: Console(), output: sink))
        #expect(engine.run() == .ok)
        return sink.lines
    }

    static func time(_ line: String) -> Double {
        guard let range = line.range(of: #""t":([0-9.e+-]+)"#, options: .regularExpression) else { return .nan }
        return Double(line[range].dropFirst(4)) ?? .nan
    }

    @Test("three devices at once: actions in time order, and each device's the same as when it runs alone", arguments: 0..<12)
    func mergedDevices(seed: UInt64) throws {
        let names = ["left panel", "right panel", "tablet"]
        let files = try names.indices.map { k in
            try temporaryFile("device\(k).ndjson", Self.stream(seed: seed * 3 + UInt64(k), count: 25, name: names[k]))
        }
        let together = try Self.run(files)
        let untimed = together.filter { !Self.time($0).isFinite }
        #expect(untimed.isEmpty, "\(untimed.prefix(3))")
        let backwards = zip(together, together.dropFirst()).filter { Self.time($1) < Self.time($0) }
        #expect(backwards.isEmpty, "seed \(seed): \(backwards.prefix(3))")
        // The same actions as the devices alone (only the order differs): no
        // gesture lost, none made up by another device's frames.
        let alone = try files.flatMap { try Self.run([$0]) }
        #expect(together.count > 3 * 10, "seed \(seed): only \(together.count) actions")
        #expect(together.sorted() == alone.sorted(), "seed \(seed)")
    }

    @Test("a device whose clock is far ahead of the other's is taken after it, whatever the order they are named in")
    func distantClocks() throws {
        let early = Self.stream(seed: 5, count: 6, name: "early")
        var late = ""
        for line in Self.stream(seed: 6, count: 6, name: "late").split(separator: "\n") {
            guard let range = line.range(of: #""t":([0-9.]+)"#, options: .regularExpression),
                  let t = Double(line[range].dropFirst(4)) else { late += line + "\n"; continue }
            late += line.replacingCharacters(in: range, with: "\"t\":\(t + 1000)") + "\n"
        }
        let lateFile = try temporaryFile("late.ndjson", late)
        let earlyFile = try temporaryFile("early.ndjson", early)
        let lines = try Self.run([lateFile, earlyFile])
        let firstLate = try #require(lines.firstIndex { $0.contains("\"late\"") || Self.time($0) > 1000 })
        let misplaced = lines[..<firstLate].filter { Self.time($0) >= 1000 } + lines[firstLate...].filter { Self.time($0) < 1000 }
        #expect(misplaced.isEmpty, "\(lines)")
        #expect(firstLate > 0)
    }
}
