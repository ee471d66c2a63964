@testable import GestureScript
import Testing

@Suite("What the runtime refuses or stops, word for word")
struct RuntimeRefusalTests {
    @Test("a stop names its limit and where; the C side's text reads back as it was written")
    func limitStops() {
        #expect(LimitStop(limit: .instructions, written: "rules.lua:12: instruction limit exceeded")
            == LimitStop(limit: .instructions, place: "rules.lua:12"))
        #expect(LimitStop(limit: .time, written: "time limit exceeded") == LimitStop(limit: .time, place: nil))
        #expect(LimitStop(limit: .time, written: "rules.lua:1: instruction limit exceeded") == nil)
        #expect(LimitStop(limit: .time, place: "rules.lua:3").description == "rules.lua:3: time limit exceeded")
        #expect(LimitStop(limit: .instructions, place: nil).description == "instruction limit exceeded")
    }

    @Test("state that cannot be carried over, and files run as root that others can write")
    func refusals() {
        #expect(StateAdoptionError.noRoom(memoryLimit: 3 << 20).description
            == "the state table does not fit in Lua's memory next to the running rules (limit 3 MiB for both)")
        #expect(StateAdoptionError.failed("rules.lua:1: boom").description == "rules.lua:1: boom")
        #expect(InsecureRulesFile(path: "/etc/r.lua").description
            == "/etc/r.lua: refusing to run rules that group or others can write while running as root; chmod go-w /etc/r.lua, or pass --allow-insecure-rules")
    }
}
