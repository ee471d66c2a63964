import Foundation
@testable import GestureScript
import Testing

/// Whether rules call `key()` is read from their text, before any gesture, so
/// the virtual keyboard can be made at start.
@Suite("Finding the rules' calls of a global function")
struct CallScannerTests {
    static func line(_ source: String) -> Int? { CallScanner.firstCall(of: "key", in: Array(source.utf8)) }

    @Test("a direct call, in each of Lua's call forms, is found at its line")
    func calls() {
        #expect(Self.line("on('tap', function(g) key('a') end)") == 1)
        #expect(Self.line("-- turn pages\n\non('left', function(g)\n  key \"PageDown\"\nend)\n") == 4)
        #expect(Self.line("on('left', function() key[[ctrl+Tab]] end)") == 1)
        #expect(Self.line("on('left', function() key{ 'a' } end)") == 1)
        #expect(Self.line("if x then key ( 'a' ) end") == 1)
        #expect(Self.line("local s = '' .. key('a')") == 1)
        // \r\n and a lone \r each end a line.
        #expect(Self.line("a = 1\r\nb = 2\rkey('a')") == 3)
    }

    @Test("the name in comments, strings, fields, methods and labels is no call")
    func notCalls() {
        #expect(Self.line("-- key('a')\nprint('key(1)')") == nil)
        #expect(Self.line("--[==[ key('a')\n]] still a comment ]==] x = 1") == nil)
        #expect(Self.line("local s = [[ key('a') ]]") == nil)
        #expect(Self.line("local s = \"escaped \\\" key('a')\"") == nil)
        #expect(Self.line("t.key('a'); t:key('a'); ::key:: goto key") == nil)
        #expect(Self.line("local t = { key = 'a' }\nprint(t.key)") == nil)
        #expect(Self.line("keyboard('a'); monkey('a'); key_('a')") == nil)
        // A reference that is no call: the keyboard is made at first use instead.
        #expect(Self.line("pcall(key, 'a')") == nil)
    }

    @Test("a call inside the scope of a local of that name is the local's; outside it, the global's")
    func shadowing() {
        #expect(Self.line("local key = print\nkey('a')") == nil)
        #expect(Self.line("local function key(x) end\nkey('a')") == nil)
        #expect(Self.line("for key, v in pairs(t) do key('a') end") == nil)
        #expect(Self.line("for key = 1, 3 do print(key) end\nkey('a')") == 2)
        #expect(Self.line("local function f(key) key('a') end\nkey('b')") == 2)
        #expect(Self.line("do local key = 1 end\nkey('a')") == 2)
        #expect(Self.line("function f()\n  local a, key = 1, 2\n  key()\nend\non('tap', function() key('x') end)") == 5)
        #expect(Self.line("repeat local key = 1 until true\nkey('a')") == 2)
    }

    @Test("hostile text ends: unfinished strings, brackets and comments, binary bytes")
    func hostile() {
        #expect(Self.line("x = 'unfinished\nkey('a')") == 2)
        #expect(Self.line("x = [==[ never closed key('a')") == nil)
        #expect(Self.line("--[[ never closed key('a')") == nil)
        #expect(Self.line(String(repeating: "end ", count: 1000) + "key('a')") == 1)
        #expect(CallScanner.firstCall(of: "key", in: [0xFF, 0x00, 0x5B, 0x3D, 0x3D]) == nil)
        #expect(Self.line(String(repeating: "(", count: 100_000)) == nil)
    }

    @Test("every example that calls key() is found; the others are not")
    func examples() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".lua") }
        let examples = try names.map { ($0, try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
        for (name, text) in examples {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
            let calls = code.contains { $0.contains(" key(") || $0.contains("(key(") || $0.hasPrefix("key(") }
            #expect((CallScanner.firstCall(of: "key", in: Array(text.utf8)) != nil) == calls, "\(name)")
        }
        #expect(examples.count >= 5)
    }
}
