#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Rules files written to crash, hang or bloat the engine, run end to end.
/// Each ends with a clear message; the engine goes on where the docs say.
@Suite("Hostile rules, end to end", .serialized)
struct HostileRulesTests {
    /// A tap, then a double tap: the first rule misbehaves on the tap, and the
    /// double tap's rule shows the engine went on.
    static let input: Data = {
        let taps = [(1.0, 1), (3.0, 2), (3.2, 3)].flatMap { t, id in
            [#"{"t":\#(t),"ev":"down","id":\#(id),"x":300,"y":300}"#, #"{"t":\#(t + 0.05),"ev":"up","id":\#(id)}"#]
        }
        return Data((taps.joined(separator: "\n") + "\n").utf8)
    }()

    static let stillHere = "\non(\"double tap\", function(g) emit(\"still here\") end)\n"

    /// The run's own peak resident memory (ru_maxrss, as /usr/bin/time reports it), in MiB.
    static func peak(_ result: Binary.Result) -> Int? {
        let line = result.errorLines.last { $0.contains("peak memory") }
        return line.flatMap { $0.split(separator: " ").dropLast().last }.flatMap { Int($0) }
    }

    static func run(_ rules: String, _ arguments: [String] = []) throws -> Binary.Result {
        let file = try Binary.temporaryFile("hostile.lua", rules)
        return try Binary.run(["run", "-v", "--lua-memory", "16"] + arguments + ["--rules", file.path, "-"], stdin: input)
    }

    static let hostile: [(name: String, rules: String)] = [
        ("a table of strings", "on('tap', function(g) local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end end)"),
        ("string.rep", "on('tap', function(g) local s = ('x'):rep(15 * 1024 * 1024) local u = s:upper() end)"),
        ("table.concat", "on('tap', function(g) local t = {} for i = 1, 1e6 do t[i] = tostring(i) end local s = table.concat(t, ',') end)"),
        ("coroutines", "on('tap', function(g) local t = {} while true do t[#t + 1] = coroutine.create(function() end) end end)"),
        ("load of huge text", "on('tap', function(g) local f = load('return ' .. ('1 + '):rep(2e6) .. '1') end)"),
        ("utf8.char", "on('tap', function(g) local t = {} for i = 1, 1e7 do t[i] = utf8.char(0x10000 + i % 50000) end end)"),
        ("deep recursion", "on('tap', function(g) local function f(n) return f(n + 1) + 1 end f(1) end)"),
        ("timers", "on('tap', function(g) for i = 1, 1e6 do after(i, function() end) end end)"),
        ("rules", "on('tap', function(g) local s = ('d'):rep(4000) for i = 1, 1e6 do on('pan', function() end, { description = s }) end end)"),
        ("emit", "on('tap', function(g) local t = {} for i = 1, 1e5 do t['k' .. i] = ('v'):rep(100) end emit('big', t) end)"),
        ("log", "on('tap', function(g) local s = ('x'):rep(1e6) for i = 1, 200 do log(s) end end)"),
        ("exec", "on('tap', function(g) local s = ('x'):rep(60000) for i = 1, 1e4 do exec({ 'true', s }) end end)"),
        ("state", "on('tap', function(g) state.t = {} while true do state.t[#state.t + 1] = { #state.t } end end)"),
        ("string comparisons", "on('tap', function(g) local a, b = ('x'):rep(5e6), ('x'):rep(5e6) while true do local _ = a == b or a < b end end)"),
    ]

    @Test("under --lua-memory 16, no rules file pushes peak memory past 16 MiB over the engine's own", .timeLimit(.minutes(10)))
    func peakMemory() throws {
        let base = try Self.run("on('tap', function(g) emit('tap') end)" + Self.stillHere)
        let baseline = try #require(Self.peak(base))
        for (name, rules) in Self.hostile {
            let result = try Self.run(rules + Self.stillHere)
            #expect(result.status == 0, "\(name): \(result.stderr.prefix(500))")
            #expect(result.lines.last?.contains(#""action":"still here""#) == true, "\(name): \(result.lines.suffix(2))")
            let peak = try #require(Self.peak(result), "\(name)")
            // ru_maxrss counts malloc's slack as well: a few MiB of margin.
            #expect(peak <= baseline + 16 + 4, "\(name): peak \(peak) MiB, baseline \(baseline) MiB")
        }
    }

    @Test("the issue's examples end with their message, and a later gesture's rule still runs", arguments: [
        ("on('tap', function(g) coroutine.wrap(function() for i = 1, 100000 do mode() end end)() emit('coroutine') end)", "", #""action":"coroutine""#),
        ("on('tap', function(g)\n  while true do pcall(function() while true do end end) end\nend)", "hostile.lua:2: instruction limit exceeded", nil),
        ("on('tap', function(g)\n  local r = ('a'):rep(40):find(('a*'):rep(40) .. 'b')\nend)", "hostile.lua:2: instruction limit exceeded", nil),
        ("local function again() after(0, again) end\non('tap', function(g) after(0, again) end)", "hostile.lua:1: warning: timers made at one input instant ran 1000 times in it", nil),
        ("on('tap', function(g)\n  local t = {} local c = t for i = 1, 30 do c.x = {} c = c.x end emit('deep', t)\nend)", "", #""action":"deep""#),
        ("on('tap', function(g)\n  local t = {} local c = t for i = 1, 40 do c.x = {} c = c.x end emit('deep', t)\nend)", "is nested more than 32 tables deep", nil),
        ("on('tap', function(g) emit('b', { [1e300] = 1 }) end)", "", #""1e+300":1}"#),
        ("on('tap', function(g)\n  emit('b', { [1] = 'x', ['1'] = 'y' })\nend)", #"hostile.lua:2: emit("b", ...): the fields table has two keys that both become "1" in JSON (1 and "1"); keep one"#, nil),
        ("on('tap', function(g)\n  exec({ 'echo', 'a\\0b' })\nend)", #"hostile.lua:2: exec(): argument 2 contains a NUL byte (\0), which no program can receive"#, nil),
        ("on('tap', function(g)\n  exec({ 'env' }, { env = { ['A=B'] = 'x' } })\nend)", #"hostile.lua:2: exec option "env": "A=B" is not a variable name"#, nil),
        ("on('tap', function(g)\n  string.find = function() while true do end end\nend)\non('tap', function(g) end, { device = 'x' })", "", nil),
    ])
    func examples(rules: String, message: String, output: String?) throws {
        let result = try Self.run(rules + Self.stillHere, ["--dry-run"])
        #expect(result.status == 0, "\(result.stderr.prefix(600))")
        if !message.isEmpty { #expect(result.stderr.contains(message), "\(result.stderr.prefix(600))") }
        if let output { #expect(result.stdout.contains(output), "\(result.stdout.prefix(300))") }
        #expect(result.lines.last?.contains(#""action":"still here""#) == true, "\(result.stdout.suffix(300))")
    }

    @Test("finalizers are refused by run and check alike, at their line")
    func finalizers() throws {
        let rules = try Binary.temporaryFile("gc.lua", "local x = 1\nsetmetatable({}, { __gc = function() while true do end end })\n")
        let message = "\(rules.path):2: setmetatable: metatables with __gc are not allowed: finalizers would run outside any budget, whenever the collector gets to them; release things explicitly instead"
        let check = try Binary.run(["check", rules.path])
        #expect(check.status == 1)
        #expect(check.errorLines == [message])
        let run = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Self.input)
        #expect(run.status == 1)
        #expect(run.errorLines == [message])
    }

    @Test("check refuses a 100 MB file before reading it, and stops a file that loops while loading")
    func checkLimits() throws {
        let dir = try Binary.temporaryFile("x", "").deletingLastPathComponent()
        let big = dir.appendingPathComponent("big.lua")
        #expect(FileManager.default.createFile(atPath: big.path, contents: Data(repeating: 0x2D, count: 100_000_000)))
        let huge = try Binary.run(["check", big.path])
        #expect(huge.status == 1)
        #expect(huge.errorLines == ["\(big.path) is 100000000 bytes, more than the Lua memory limit (67108864 bytes) could ever hold; a rules file is a few kilobytes of Lua"])
        try? FileManager.default.removeItem(at: big)

        let loop = try Binary.temporaryFile("loop.lua", "local n = 0\nwhile true do n = n + 1 end\n")
        let looped = try Binary.run(["check", loop.path])
        #expect(looped.status == 1)
        #expect(looped.errorLines == ["\(loop.path):2: instruction limit exceeded"])
    }

    @Test("key() called through pcall, without uinput, names the rule's line")
    func keyOrigin() throws {
        let file = try Binary.temporaryFile("hostile.lua", "on('tap', function(g)\n  pcall(key, 'a')\nend)\n")
        // Whether or not this machine has uinput: the run is pointed at a node that is not there.
        let missing = file.deletingLastPathComponent().appendingPathComponent("no-uinput").path
        let result = try Binary.run(["run", "--rules", file.path, "-"], stdin: Self.input, environment: ["GESTUREMAP_UINPUT": missing])
        #expect(result.status == 69)
        #expect(result.errorLines.first?.hasPrefix("gesturemap: \(file.path):2: key() needs \(missing), which does not exist") == true, "\(result.stderr)")
    }

    @Test("require refuses a module that is a link out of the rules directory")
    func requireLink() throws {
        let dir = try Binary.temporaryFile("rules.lua", "local secret = require('secret')\n").deletingLastPathComponent()
        let outside = try Binary.temporaryFile("secret.lua", "return 'outside'\n")
        #expect(symlink(outside.path, dir.appendingPathComponent("secret.lua").path) == 0)
        let result = try Binary.run(["check", dir.appendingPathComponent("rules.lua").path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(dir.path)/rules.lua:1: module \"secret\": \(dir.path)/secret.lua leads to \(outside.path), outside the rules file's directory \(dir.path); require only loads files inside it"])
        // A link that stays inside is fine.
        try "return 'inside'\n".write(to: dir.appendingPathComponent("real.lua"), atomically: true, encoding: .utf8)
        #expect(symlink(dir.appendingPathComponent("real.lua").path, dir.appendingPathComponent("alias.lua").path) == 0)
        try "local m = require('alias')\n".write(to: dir.appendingPathComponent("ok.lua"), atomically: true, encoding: .utf8)
        let ok = try Binary.run(["check", dir.appendingPathComponent("ok.lua").path])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("every() after a jump of hours in the input's time catches up 100 runs, skips the rest and goes on")
    func clockJump() throws {
        let rules = "local n = 0\non('tap', function(g) if n == 0 then every(1, function() n = n + 1 end) end emit('n', { n = n }) end)\n"
        let lines = [#"{"t":1,"ev":"down","id":1,"x":300,"y":300}"#, #"{"t":1.05,"ev":"up","id":1}"#,
                     #"{"t":36000,"ev":"down","id":2,"x":300,"y":300}"#, #"{"t":36000.05,"ev":"up","id":2}"#]
        let file = try Binary.temporaryFile("jump.lua", rules)
        let result = try Binary.run(["run", "--rules", file.path, "-"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0)
        // 100 runs catching up, and the one due with the tap's recognition, 0.3 s after it.
        #expect(result.lines == [#"{"action":"n","t":1.05,"n":0}"#, #"{"action":"n","t":36000.05,"n":101}"#])
        #expect(result.stderr.contains("\(file.path):2: warning: every(1) fell"), "\(result.stderr)")
    }

    /// A live run whose rules are reloaded with SIGHUP into `next`.
    static func reload(from first: String, to next: String, memory: Int = 16) throws -> (LiveRun, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-hostile-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let rules = dir.appendingPathComponent("rules.lua")
        try first.write(to: rules, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", "--no-watch", "--lua-memory", String(memory), "--rules", rules.path])
        run.send(#"{"t":1,"ev":"down","id":1,"x":300,"y":300}"#)
        run.send(#"{"t":1.05,"ev":"up","id":1}"#)
        #expect(run.wait(upTo: 20) { out, _ in out.contains(#""action":"old""#) })
        try next.write(to: rules, atomically: true, encoding: .utf8)
        run.hangUp()
        return (run, rules.path)
    }

    @Test("a reload that cannot be done keeps the old rules running", arguments: [
        ("state.t = {} for i = 1, 1e9 do state.t[i] = { i } end", "ran out of Lua memory while loading"),
        ("local x = setmetatable({}, { __gc = function() end })", "metatables with __gc are not allowed"),
        ("while true do end", "instruction limit exceeded"),
        ("on('tap', function(g) emit('new') end", "expected near <eof>"),
    ])
    func refusedReload(next: String, message: String) throws {
        let (run, path) = try Self.reload(from: "on('tap', function(g) emit('old') end)\n", to: next)
        #expect(run.wait(upTo: 30) { _, err in err.contains("the rules that were running go on") }, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.contains("reloading \(path) failed (SIGHUP)"), "\(run.stderr)")
        run.send(#"{"t":2,"ev":"down","id":2,"x":300,"y":300}"#)
        run.send(#"{"t":2.05,"ev":"up","id":2}"#)
        #expect(run.wait(upTo: 20) { out, _ in out.components(separatedBy: #""action":"old""#).count == 3 })
        #expect(run.finish() == 0)
    }

    @Test("a rules file replaced by a FIFO (with no writer) is refused at reload, without waiting; the old rules go on")
    func fifoReload() throws {
        let (run, path) = try Self.reload(from: "on('tap', function(g) emit('old') end)\n", to: "on('tap', function(g) emit('new') end)\n")
        // The SIGHUP reload of the rewritten file, then the file is a FIFO nobody writes.
        #expect(run.wait(upTo: 30) { _, err in err.contains("reloaded \(path)") }, "\(run.stderr)")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        run.hangUp()
        #expect(run.wait(upTo: 30) { _, err in err.contains("it is no longer a regular file") }, "\(run.stderr)")
        #expect(run.stderr.contains("cannot read \(path): it is no longer a regular file (a FIFO, a socket or a device); rules are reloaded only from regular files"), "\(run.stderr)")
        run.send(#"{"t":2,"ev":"down","id":2,"x":300,"y":300}"#)
        run.send(#"{"t":2.05,"ev":"up","id":2}"#)
        #expect(run.wait(upTo: 20) { out, _ in out.contains(#""action":"new""#) }, "\(run.stdout)\n\(run.stderr)")
        #expect(run.finish() == 0)
    }

    @Test("rules named as a pipe at start (--rules <(...)) are read as they come")
    func rulesFromPipe() throws {
        let dir = try Binary.temporaryDirectory()
        let fifo = dir.appendingPathComponent("rules.lua").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            let text = "on('tap', function(g) emit('piped') end)\n"
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        writer.start()
        let result = try Binary.run(["run", "--no-watch", "--rules", fifo, "-"], stdin: Data("{\"t\":1,\"ev\":\"down\",\"id\":1,\"x\":300,\"y\":300}\n{\"t\":1.05,\"ev\":\"up\",\"id\":1}\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first?.contains(#""action":"piped""#) == true, "\(result.stdout)\n\(result.stderr)")
    }

    @Test("a state too big to copy next to the running rules refuses the reload; they go on")
    func stateTooBig() throws {
        let first = "state.t = state.t or {} for i = 1, 40000 do state.t[i] = { i } end\non('tap', function(g) emit('old', { n = #state.t }) end)\n"
        let (run, path) = try Self.reload(from: first, to: "on('tap', function(g) emit('new') end)\n", memory: 8)
        #expect(run.wait(upTo: 30) { _, err in err.contains("the rules that were running go on") }, "\(run.stderr)")
        #expect(run.stderr.contains("reloading \(path) failed (SIGHUP): the state table does not fit in Lua's memory next to the running rules (limit 8 MiB for both); the rules that were running go on"), "\(run.stderr)")
        run.send(#"{"t":2,"ev":"down","id":2,"x":300,"y":300}"#)
        run.send(#"{"t":2.05,"ev":"up","id":2}"#)
        #expect(run.wait(upTo: 20) { out, _ in out.contains(#"{"action":"old","t":2.05,"n":40000}"#) }, "\(run.stdout)")
        #expect(run.finish() == 0)
    }
}
