import Foundation
import Testing

/// `--share` outside a kernel: what it says about inputs it cannot share.
@Suite("run --share on files and pipes")
struct ShareCommandTests {
    @Test("a file or pipe is read as ever, and the run says once that nothing is shared")
    func nothingToShare() throws {
        let result = try Binary.synthThenRun(["tap"], seed: 1, run: ["--share", "--rules", "examples/pager.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }
                == ["gesturemap: --share shares live devices (/dev/input/event*), and no input here is one: nothing is shared"])
    }

    @Test("config{ share = true } in the rules says the same")
    func fromConfig() throws {
        let rules = try Binary.temporaryFile("share.lua", "config{ share = true }\non(\"tap\", function(g) emit(\"tapped\") end)\n")
        let result = try Binary.synthThenRun(["tap"], seed: 1, run: ["--rules", rules.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"action\":\"tapped\""))
        #expect(result.stderr.contains("gesturemap: --share shares live devices (/dev/input/event*), and no input here is one: nothing is shared"))
    }
}
