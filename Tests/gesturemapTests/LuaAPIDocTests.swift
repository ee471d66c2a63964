import Foundation
import Testing

/// Every example in docs/lua-api.md loads; those marked `-- try:` run against
/// the gestures they name and emit what `-- emits:` says.
@Suite("docs/lua-api.md examples", .serialized)
struct LuaAPIDocTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var index: Int
        var code: String
        var tries: [String]
        var emits: [String]
        var testDescription: String { "example \(index + 1): \(code.split(separator: "\n").first { !$0.hasPrefix("--") } ?? "")" }
    }

    static let examples: [Example] = {
        guard let text = try? String(contentsOf: Binary.packageRoot.appendingPathComponent("docs/lua-api.md"), encoding: .utf8) else { return [] }
        var out: [Example] = []
        var rest = Substring(text)
        while let open = rest.range(of: "```lua\n") {
            guard let close = rest.range(of: "```", range: open.upperBound..<rest.endIndex) else { break }
            let code = String(rest[open.upperBound..<close.lowerBound])
            var tries: [String] = []
            var emits: [String] = []
            for line in code.split(separator: "\n") {
                if line.hasPrefix("-- try:") {
                    tries = line.dropFirst(7).split(separator: "\"").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                }
                if line.hasPrefix("-- emits:") { emits = line.dropFirst(9).split(separator: " ").map(String.init) }
            }
            out.append(Example(index: out.count, code: code, tries: tries, emits: emits))
            rest = rest[close.upperBound...]
        }
        return out
    }()

    @Test("the document has examples")
    func found() {
        #expect(Self.examples.count >= 12)
    }

    @Test("each example loads", arguments: examples)
    func loads(_ example: Example) throws {
        let rules = try Binary.temporaryFile("example.lua", example.code)
        let check = try Binary.run(["check", rules.path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("each example that names gestures to try runs as it says", arguments: examples.filter { !$0.tries.isEmpty })
    func runs(_ example: Example) throws {
        let rules = try Binary.temporaryFile("example.lua", example.code)
        let result = try Binary.synthThenRun(example.tries, seed: 1, run: ["--dry-run", "--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("stack traceback"), "\(result.stderr)")
        let actions = result.lines.compactMap { Binary.json($0)?["action"] as? String }
        for name in example.emits {
            #expect(actions.contains(name), "\(name) not in \(actions)")
        }
    }
}
