#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Reloads asked for without pause (SIGHUP after SIGHUP, or a rule that
/// touches its own file) of a rules file that takes long to load: each used
/// to reload at once, back to back, and the loop did little else.
@Suite("Reload storms", .serialized)
struct ReloadStormTests {
    /// About a third of a second of loading, almost none of it Lua instructions.
    static let slowRules = """
    for i = 1, 100 do local s = ("x"):rep(1000000) end
    on("tap", function(g) emit("tap") end)
    """

    @Test("SIGHUP for four seconds reloads a slow rules file a few times, not over and over, and says why once")
    func signalStorm() throws {
        let rules = try Binary.temporaryFile("slow.lua", Self.slowRules)
        let run = try LiveRun(["run", "--no-watch", "--rules", rules.path])
        run.send(#"{"t":1,"ev":"down","id":1,"x":300,"y":300}"#)
        run.send(#"{"t":1.05,"ev":"up","id":1}"#)
        #expect(run.wait(upTo: 30) { out, _ in out.contains(#""action":"tap""#) })
        let end = Date().addingTimeInterval(4)
        while Date() < end {
            run.hangUp()
            run.wait(upTo: 0.02) { _, _ in false }
        }
        // What was asked for during the storm still happens, once, after it.
        #expect(run.wait(upTo: 60) { _, err in err.components(separatedBy: "reloaded \(rules.path)").count >= 2 })
        run.wait(upTo: 0.5) { _, _ in false }
        let reloads = run.stderr.components(separatedBy: "reloaded \(rules.path) (SIGHUP)").count - 1
        let loads = reloads + 1
        // Back to back, four seconds of reloads of a third of a second each were about twelve.
        #expect(reloads >= 1 && reloads <= 4, "\(reloads) reloads: \(run.stderr)")
        #expect(run.stderr.contains("the next reload waits"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "so that reloads take at most a tenth of the time (said once)").count == 2, "\(run.stderr)")
        run.send(#"{"t":2,"ev":"down","id":2,"x":300,"y":300}"#)
        run.send(#"{"t":2.05,"ev":"up","id":2}"#)
        #expect(run.wait(upTo: 30) { out, _ in out.components(separatedBy: #""action":"tap""#).count == 3 }, "\(loads) loads")
        #expect(run.finish() == 0)
    }
}
