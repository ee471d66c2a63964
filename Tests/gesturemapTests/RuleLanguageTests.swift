import Foundation
import Testing

@Suite("The rule language, end to end", .serialized)
struct RuleLanguageTests {
    /// A one-finger tap at `t` (NDJSON lines, device units = CSS pixels).
    static func tap(_ t: Double, id: Int) -> [String] {
        [#"{"t":\#(t),"ev":"down","id":\#(id),"x":300,"y":300}"#, #"{"t":\#(t + 0.05),"ev":"up","id":\#(id)}"#]
    }

    /// `run` on a rules file whose tap rule emits "old", once a first tap has shown it running.
    static func runningOldTapRule() throws -> (LiveRun, URL) {
        let rules = try Binary.temporaryDirectory().appendingPathComponent("rules.lua")
        try "on(\"tap\", function(g) emit(\"old\") end)\n".write(to: rules, atomically: false, encoding: .utf8)
        let run = try LiveRun(["run", "--rules", rules.path])
        for line in tap(1, id: 1) { run.send(line) }
        #expect(run.wait { out, _ in out.contains(#""action":"old""#) })
        return (run, rules)
    }

    @Test("a rules file rewritten without pause: taps are acted on meanwhile, and the rules reload within a second of the first change")
    func continuousRewrites() throws {
        let (run, rules) = try Self.runningOldTapRule()
        final class Flag: @unchecked Sendable {
            private let lock = NSLock()
            private var stopped = false
            private var count = 0
            var stop: Bool {
                get { lock.withLock { stopped } }
                set { lock.withLock { stopped = newValue } }
            }
            var writes: Int { lock.withLock { count } }
            func wrote() { lock.withLock { count += 1 } }
        }
        let flag = Flag()
        let writer = Thread {
            // Every 20 ms for 4 s, as a program that logs into the rules file would.
            for i in 0..<200 where !flag.stop {
                try? "on(\"tap\", function(g) emit(\"new\") end) -- \(i)\n".write(to: rules, atomically: false, encoding: .utf8)
                flag.wrote()
                usleep(20_000)
            }
        }
        let started = Date()
        writer.start()
        defer { flag.stop = true }
        // The tap goes in once the writes are under way.
        while flag.writes < 5, Date().timeIntervalSince(started) < 2 { usleep(2_000) }
        for line in Self.tap(2, id: 2) { run.send(line) }
        // The tap is acted on while the writes go on (with the old or the new rules).
        #expect(run.wait(upTo: 2) { out, _ in out.split(separator: "\n").count >= 2 }, "\(run.stdout)\n\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(run.wait(upTo: 3) { _, err in err.contains("reloaded \(rules.path) (the file changed)") }, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 3.5, "the reload waited for the writes to stop")
        flag.stop = true
        #expect(run.finish() == 0)
    }

    @Test("a rules file emptied (as a rewrite in place is, for a moment) keeps the running rules, said; what is then written loads")
    func emptiedFileKeepsRules() throws {
        let (run, rules) = try Self.runningOldTapRule()
        // What a rewrite in place leaves between its truncation and its first write.
        try "".write(to: rules, atomically: false, encoding: .utf8)
        #expect(run.wait { _, err in err.contains("reloading \(rules.path) failed (the file changed): the file is empty (still being written?); to run no rules, leave a comment in it; the rules that were running go on") }, "\(run.stderr)")
        for line in Self.tap(2, id: 2) { run.send(line) }
        #expect(run.wait { out, _ in out.components(separatedBy: #""action":"old""#).count == 3 }, "\(run.stdout)")
        try "-- nothing for now\n".write(to: rules, atomically: false, encoding: .utf8)
        #expect(run.wait { _, err in err.contains("reloaded \(rules.path) (the file changed): 0 rules") }, "\(run.stderr)")
        // With no rules, the third tap does nothing.
        for line in Self.tap(3, id: 3) { run.send(line) }
        #expect(run.finish() == 0)
        #expect(run.stdout.split(separator: "\n").count == 2, "\(run.stdout)")
    }

    @Test("a reload with a broken file keeps the old rules; a good reload takes effect for the next gesture")
    func reload() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let rules = dir.appendingPathComponent("rules.lua")
        func write(_ text: String) throws {
            // As editors save: a new file renamed over the old one.
            let temp = dir.appendingPathComponent(".rules.lua.tmp")
            try text.write(to: temp, atomically: false, encoding: .utf8)
            _ = rename(temp.path, rules.path)
        }
        try write("state.count = (state.count or 0) + 1\non(\"tap\", function(g) emit(\"a\", { loads = state.count }) end)\n")
        let run = try LiveRun(["run", "--rules", rules.path])
        for line in Self.tap(1, id: 1) { run.send(line) }
        #expect(run.wait { out, _ in out.contains(#""action":"a""#) })

        try write("on(\"tap\", function(g) emit(\"b\" end)\n")
        #expect(run.wait { _, err in err.contains("the rules that were running go on") })
        #expect(run.stderr.contains("rules.lua:1: ')' expected near 'end'"))
        for line in Self.tap(2, id: 2) { run.send(line) }
        #expect(run.wait { out, _ in out.components(separatedBy: #""action":"a""#).count == 3 })

        try write("state.count = (state.count or 0) + 1\non(\"tap\", function(g) emit(\"b\", { loads = state.count }) end)\n")
        #expect(run.wait { _, err in err.contains("gesturemap: reloaded \(rules.path) (the file changed): 1 rules") })
        for line in Self.tap(3, id: 3) { run.send(line) }
        #expect(run.wait { out, _ in out.contains(#"{"action":"b","t":3.05,"loads":2}"#) })

        run.hangUp()
        #expect(run.wait { _, err in err.contains("(SIGHUP)") })
        for line in Self.tap(4, id: 4) { run.send(line) }
        #expect(run.wait { out, _ in out.contains(#"{"action":"b","t":4.05,"loads":3}"#) })
        #expect(run.finish() == 0)
    }

    @Test("timers fire on the input's clock during replay, and pending ones at the end of input")
    func timersInReplay() throws {
        let rules = try Binary.temporaryFile("t.lua", """
        on("tap", function(g)
          after(1, function() emit("one second later") end)
          after(100, function() emit("at the end") end)
        end)

        """)
        let events = (Self.tap(1, id: 1) + Self.tap(3, id: 2)).joined(separator: "\n") + "\n"
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(events.utf8))
        #expect(result.lines == [
            #"{"action":"one second later","t":2.05}"#,
            #"{"action":"one second later","t":4.05}"#,
            #"{"action":"at the end","t":101.05}"#,
            #"{"action":"at the end","t":103.05}"#,
        ])
    }

    @Test("a handler that eats memory is stopped, memory stays under 512 MB, later rules run")
    func memoryHog() throws {
        let rules = try Binary.temporaryFile("hog.lua", """
        on("tap", function(g)
          local t = {}
          while true do t[#t + 1] = string.rep("x", 1000000) .. #t end
        end)
        on("double tap", function(g) emit("still here") end)

        """)
        let events = (Self.tap(1, id: 1) + Self.tap(3, id: 2) + Self.tap(3.2, id: 3)).joined(separator: "\n") + "\n"
        let result = try Binary.run(["run", "-v", "--rules", rules.path, "-"], stdin: Data(events.utf8))
        #expect(result.status == 0)
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["still here"])
        #expect(result.stderr.contains("\(rules.path):1: the handler for \"tap\" ran out of Lua memory (limit 64 MiB) and was stopped; raise the limit with --lua-memory MiB"))
        let peak = result.errorLines.last { $0.contains("peak memory") }
        let megabytes = peak.flatMap { $0.split(separator: " ").dropLast().last }.flatMap { Int($0) }
        #expect((megabytes ?? 9999) < 512, "\(peak ?? "no peak line")")
    }

    @Test("a while-true handler is stopped with its file:line, and a later gesture's rule still runs")
    func runaway() throws {
        let rules = try Binary.temporaryFile("loop.lua", "on(\"tap\", function(g)\n  while true do end\nend)\non(\"double tap\", function(g) emit(\"ok\") end)\n")
        let events = (Self.tap(1, id: 1) + Self.tap(3, id: 2) + Self.tap(3.2, id: 3)).joined(separator: "\n") + "\n"
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(events.utf8))
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["ok"])
        #expect(result.errorLines.first == "\(rules.path):2: instruction limit exceeded")
    }

    @Test("require loads plain modules from the rules file's directory only")
    func modules() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-require-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try "return { next = function(p) return p + 1 end }\n".write(to: dir.appendingPathComponent("lib/paging.lua"), atomically: true, encoding: .utf8)
        try """
        local paging = require("lib.paging")
        local same = require("lib.paging")
        local page = 1
        on("tap", function(g) page = paging.next(page); emit("page", { page = page, cached = paging == same }) end)

        """.write(to: dir.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        let result = try Binary.run(["run", "--rules", dir.appendingPathComponent("rules.lua").path, "-"], stdin: Data((Self.tap(1, id: 1).joined(separator: "\n") + "\n").utf8))
        #expect(result.lines == [#"{"action":"page","t":1.05,"cached":true,"page":2}"#])

        try "require(\"nothere\")\n".write(to: dir.appendingPathComponent("bad.lua"), atomically: true, encoding: .utf8)
        let missing = try Binary.run(["check", dir.appendingPathComponent("bad.lua").path])
        #expect(missing.status == 1)
        #expect(missing.errorLines.first == "\(dir.path)/bad.lua:1: module \"nothere\" not found: no file \(dir.path)/nothere.lua; require only loads Lua files next to the rules file")
        try "require(\"../etc/passwd\")\n".write(to: dir.appendingPathComponent("escape.lua"), atomically: true, encoding: .utf8)
        let escape = try Binary.run(["check", dir.appendingPathComponent("escape.lua").path])
        #expect(escape.errorLines.first == "\(dir.path)/escape.lua:1: require() takes a module name such as \"helpers\" or \"lib.paging\" (a file next to the rules file)")
    }

    @Test("running as root, a rules file others can write is refused unless --allow-insecure-rules",
          .enabled(if: geteuid() == 0, "the refusal is for root; this test runs as another user"))
    func insecureRules() throws {
        let rules = try Binary.temporaryFile("open.lua", "on(\"tap\", function() emit(\"t\") end)\n")
        #expect(chmod(rules.path, 0o666) == 0)
        let refused = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data())
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["\(rules.path): refusing to run rules that group or others can write while running as root; chmod go-w \(rules.path), or pass --allow-insecure-rules"])
        let allowed = try Binary.run(["run", "--allow-insecure-rules", "--rules", rules.path, "-"], stdin: Data((Self.tap(1, id: 1).joined(separator: "\n") + "\n").utf8))
        #expect(allowed.status == 0)
        #expect(allowed.lines.count == 1)
    }

    @Test("check reports every problem in one pass, shadowed rules included, and exits 1")
    func checkEverything() throws {
        let rules = try Binary.temporaryFile("many.lua", """
        on("tap", function() end)
        on("swipe sideways", function() end)
        on({ kind = "swipe", direction = "in" }, function() end)
        on("tap", function() end)
        config{ tap_max_duration = 9, swipe_speed = 1 }

        """)
        let result = try Binary.run(["check", rules.path])
        #expect(result.status == 1)
        let p = rules.path
        #expect(result.errorLines == [
            "\(p):2: cannot read gesture phrase \"swipe sideways\": unknown word \"sideways\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\"",
            "\(p):3: \"in\" is not a direction of swipe; use one of left, right, up, down, up-left, up-right, down-left, down-right",
            "\(p):5: unknown config key \"swipe_speed\"; known keys: finger_settle, swipe_min_distance, swipe_max_angle, swipe_max_duration, swipe_min_speed, swipe_commit_speed, tap_max_duration, tap_max_movement, tap_interval, tap_max_distance, long_press_duration, long_press_max_movement, pan_min_distance, pinch_min_scale, pinch_min_spread, rotate_min_angle, edge_zone, shape_min_score, shape_min_size, shape_gap, typing_quiet, swipe_settle, claim_fingers, share, pointer_gain, share_mice, mouse_dpi, stroke_button, stroke_threshold, stroke_timeout",
            "\(p):5: config key \"tap_max_duration\" must be between 0.02 and 2 s, not 9",
            "\(p):1: warning: this rule for \"tap\" never runs: the rule at \(p):4 is for the same gesture and, defined later, wins; remove one or give them different modes",
        ])
    }
}
