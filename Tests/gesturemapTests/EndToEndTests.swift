import Foundation
import Testing

@Suite("gesturemap end to end", .serialized)
struct EndToEndTests {
    static let directions = ["left", "right", "up", "down"]

    /// One rule per combination, each emitting what it matched.
    static let combinationRules: String = {
        var lua = ""
        for fingers in 1...4 {
            for direction in directions {
                lua += "on(\"\(fingers)-finger swipe \(direction)\", function(g) emit(\"swipe\", { fingers = g.fingers, direction = g.direction, rule = \"\(fingers) \(direction)\" }) end)\n"
            }
        }
        return lua
    }()

    @Test("synth piped into run gives exactly each generated swipe, once", arguments: 1...5)
    func everyCombination(seed: Int) throws {
        let rules = try Binary.temporaryFile("combos.lua", Self.combinationRules)
        var combos: [(Int, String)] = []
        for fingers in 1...4 { for d in Self.directions { combos.append((fingers, d)) } }
        // A different order for each seed, so no gesture always follows the same one.
        var rng = SystemRandomNumberGenerator()
        _ = rng.next()
        combos = combos.enumerated().sorted { ($0.offset * 7 + seed * 5) % 16 < ($1.offset * 7 + seed * 5) % 16 }.map(\.element)
        let phrases = combos.map { "\($0.0)-finger swipe \($0.1)" }
        let result = try Binary.synthThenRun(phrases, seed: seed, run: ["--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        let got = result.lines.compactMap(Binary.json).map { "\($0["fingers"] ?? "?") \($0["direction"] ?? "?")" }
        #expect(got == combos.map { "\($0.0) \($0.1)" })
    }

    @Test("the demo: two swipes left and one right turn pages 2, 3 and back to 2")
    func demo() throws {
        let result = try Binary.synthThenRun(
            ["two-finger swipe left", "two-finger swipe left", "two-finger swipe right"], seed: 1,
            run: ["--rules", "examples/pager.lua"])
        #expect(result.status == 0)
        let lines = result.lines.compactMap(Binary.json)
        #expect(lines.map { $0["action"] as? String } == ["next_page", "next_page", "prev_page"])
        #expect(lines.map { $0["page"] as? Int } == [2, 3, 2])
        #expect(result.lines.allSatisfy { $0.hasPrefix("{\"action\":") && $0.contains(",\"t\":") })
    }

    @Test("without --rules the built-in rules turn swipes into next_page and prev_page")
    func defaultRules() throws {
        let result = try Binary.synthThenRun(["swipe left", "two-finger swipe right", "swipe up"], seed: 4, run: [])
        #expect(result.status == 0)
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["next_page", "prev_page"])
    }

    @Test("a file path, - and piped stdin are all inputs")
    func inputForms() throws {
        let synth = try Binary.run(["synth", "swipe left", "--seed", "2"])
        let file = try Binary.temporaryFile("in.ndjson", synth.stdout)
        let fromFile = try Binary.run(["run", file.path])
        let fromDash = try Binary.run(["run", "-"], stdin: Data(synth.stdout.utf8))
        let fromPipe = try Binary.run(["run"], stdin: Data(synth.stdout.utf8))
        #expect(fromFile.lines.count == 1)
        #expect(fromFile.stdout == fromDash.stdout)
        #expect(fromFile.stdout == fromPipe.stdout)
    }

    @Test("a malformed line is reported as SOURCE:LINE and skipped; --strict stops with 65")
    func malformedLine() throws {
        let synth = try Binary.run(["synth", "swipe left", "swipe left", "--seed", "3"])
        var lines = synth.stdout.split(separator: "\n").map(String.init)
        lines.insert("{\"t\": oops}", at: 5)
        let file = try Binary.temporaryFile("bad.ndjson", lines.joined(separator: "\n") + "\n")
        let lenient = try Binary.run(["run", file.path])
        #expect(lenient.status == 0)
        #expect(lenient.lines.count == 2)
        #expect(lenient.errorLines.first == "\(file.path):6: invalid JSON: expected a number at column 7")
        let strict = try Binary.run(["run", "--strict", file.path])
        #expect(strict.status == 65)
        #expect(strict.lines.isEmpty)
        #expect(strict.errorLines.first == "\(file.path):6: invalid JSON: expected a number at column 7")
    }

    @Test("--resolution and -v: the resolution in use is reported")
    func resolution() throws {
        let events = """
        {"t":0,"ev":"down","id":1,"x":400,"y":100}
        {"t":0.05,"ev":"move","id":1,"x":300,"y":100}
        {"t":0.1,"ev":"move","id":1,"x":200,"y":100}
        {"t":0.12,"ev":"up","id":1}

        """
        let css = try Binary.run(["run", "-v", "-"], stdin: Data(events.utf8))
        #expect(css.lines.count == 1)
        #expect(css.stderr.contains("<stdin>: no resolution given; taking coordinates as CSS pixels (96 per inch, 3.78 per mm); use --resolution UNITS_PER_MM to set it"))
        // At 40 units/mm the same 200 units are 5 mm: too short for a swipe.
        let fine = try Binary.run(["run", "-v", "--resolution", "40", "-"], stdin: Data(events.utf8))
        #expect(fine.lines.isEmpty)
        #expect(fine.stderr.contains("<stdin>: resolution 40 units/mm from --resolution"))
    }

    @Test("usage errors exit 64 and say what to do", arguments: [
        (["frobnicate"], "gesturemap: unknown command \"frobnicate\"; commands: run, serve, check, test, explain, draw, synth, devices, record, apps, shape, doctor, import, completions (see gesturemap --help)"),
        (["run", "--bogus"], "gesturemap run: unknown option --bogus"),
        (["run", "--resolution", "x"], "gesturemap run: --resolution takes units per millimetre, as 16 or 16,12 (x,y), not \"x\""),
        (["synth"], "gesturemap synth: name the gestures to make, as in: gesturemap synth \"two-finger swipe left\" \"double tap\""),
        (["synth", "sideways"], "gesturemap synth: cannot read gesture phrase \"sideways\": unknown word \"sideways\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\""),
        (["check"], "gesturemap check: give the rules files to check, as in: gesturemap check rules.lua"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try Binary.run(arguments)
        #expect(result.status == 64)
        #expect(result.errorLines.first == message)
    }

    @Test("--help for every subcommand, and --version")
    func help() throws {
        for command in ["run", "check", "synth"] {
            let result = try Binary.run([command, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: gesturemap \(command)"))
        }
        let main = try Binary.run(["--help"])
        #expect(main.stdout.contains("commands:"))
        let version = try Binary.run(["--version"])
        #expect(version.stdout.hasPrefix("gesturemap "))
    }

    @Test("a missing input file exits 66 and names it")
    func missingInput() throws {
        let result = try Binary.run(["run", "/nonexistent/touches.ndjson"])
        #expect(result.status == 66)
        #expect(result.errorLines.first == "gesturemap: /nonexistent/touches.ndjson: no such file; give a path to an NDJSON recording, or - for standard input")
    }

    @Test("check: a good file exits 0, a bad phrase exits 1 quoting it with its line")
    func check() throws {
        let good = try Binary.run(["check", "examples/pager.lua"])
        #expect(good.status == 0)
        let bad = try Binary.temporaryFile("bad.lua", "on(\"swipe left\", function() end)\non(\"two-finger sideways\", function() end)\n")
        let result = try Binary.run(["check", bad.path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(bad.path):2: cannot read gesture phrase \"two-finger sideways\": unknown word \"sideways\"; phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\""])
    }

    @Test("check --lua-memory: rules that load under run's default fail under a limit they do not fit, as run would")
    func checkMemory() throws {
        let rules = try Binary.temporaryFile("big.lua", "local big = (\"x\"):rep(4 * 1024 * 1024)\non(\"tap\", function(g) emit(\"t\", { n = #big }) end)\n")
        let roomy = try Binary.run(["check", rules.path])
        #expect(roomy.status == 0)
        #expect(roomy.errorLines == ["\(rules.path): ok"])
        let tight = try Binary.run(["check", rules.path, "--lua-memory", "1"])
        #expect(tight.status == 1)
        #expect(tight.errorLines == ["\(rules.path): the rules ran out of Lua memory while loading (limit 1 MiB); raise it with --lua-memory MiB"])
        let bad = try Binary.run(["check", rules.path, "--lua-memory=0"])
        #expect(bad.status == 64)
        #expect(bad.errorLines.first == "gesturemap check: --lua-memory takes MiB from 1 to 4096, not \"0\"")
    }

    @Test("check: a syntax error exits 1 naming the line")
    func syntaxError() throws {
        let bad = try Binary.temporaryFile("syntax.lua", "on(\"swipe left\", function()\n  emit(\"x\"\nend)\n")
        let result = try Binary.run(["check", bad.path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(bad.path):3: ')' expected (to close '(' at line 2) near 'end'"])
    }

    @Test("run with rules that fail to load exits 1 before reading input")
    func runWithBadRules() throws {
        let bad = try Binary.temporaryFile("bad.lua", "on(\"swipe sideways\", function() end)\n")
        let result = try Binary.run(["run", "--rules", bad.path], stdin: Data())
        #expect(result.status == 1)
        #expect(result.errorLines.first?.hasPrefix("\(bad.path):1: cannot read gesture phrase \"swipe sideways\"") == true)
    }

    @Test("an error in a handler is logged with its line, and later gestures still run")
    func handlerError() throws {
        let rules = try Binary.temporaryFile("boom.lua", """
        on("swipe left", function(g) error("boom") end)
        on("swipe right", function(g) emit("right") end)

        """)
        let result = try Binary.synthThenRun(["swipe left", "swipe right"], seed: 5, run: ["--rules", rules.path])
        #expect(result.status == 0)
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["right"])
        #expect(result.errorLines.first == "\(rules.path):1: boom")
        #expect(result.stderr.contains("stack traceback:"))
    }

    @Test("synth: the same seed gives the same bytes, another seed other bytes")
    func synthSeeds() throws {
        let a = try Binary.run(["synth", "two-finger swipe left", "--seed", "9"])
        let b = try Binary.run(["synth", "two-finger swipe left", "--seed", "9"])
        let c = try Binary.run(["synth", "two-finger swipe left", "--seed", "10"])
        #expect(a.stdout == b.stdout)
        #expect(a.stdout != c.stdout)
        #expect(a.lines.first?.hasPrefix("{\"device\":") == true)
    }

    @Test("synth --count cycles through the phrases, in blocks, with one device header")
    func synthCount() throws {
        let stream = try Binary.run(["synth", "--count", "5", "tap", "swipe left", "--seed", "3"])
        #expect(stream.status == 0)
        #expect(stream.lines.filter { $0.hasPrefix("{\"device\":") }.count == 1)
        let rules = try Binary.temporaryFile("count.lua", """
        on("tap", function(g) emit("tap") end)
        on("swipe left", function(g) emit("left") end)

        """)
        let run = try Binary.run(["run", "--rules", rules.path], stdin: Data(stream.stdout.utf8))
        #expect(run.lines.compactMap { Binary.json($0)?["action"] as? String } == ["tap", "left", "tap", "left", "tap"])
    }

    @Test("synth --count 0 is a usage error that says what it takes")
    func synthCountZero() throws {
        let result = try Binary.run(["synth", "--count", "0", "tap"])
        #expect(result.status == 64)
        #expect(result.errorLines.first == "gesturemap synth: --count takes a number of gestures, 1 or more, not \"0\"")
    }

    @Test("an unknown --format names the formats it takes, for run and for record")
    func unknownFormat() throws {
        let run = try Binary.run(["run", "--format", "xml", "/dev/null"])
        #expect(run.status == 64)
        #expect(run.errorLines.first == "gesturemap run: --format takes one of ndjson, evemu, evtest, libinput, raw, not \"xml\"")
        let record = try Binary.run(["record", "--from", "x", "--format=bad"])
        #expect(record.status == 64)
        #expect(record.errorLines.first == "gesturemap record: --format takes one of ndjson, evemu, raw, not \"bad\"")
    }
}
