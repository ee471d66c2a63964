import GestureCore
import Testing

/// `input:` and `bug:` entries: typed in the core, the same words and JSON as always.
@Suite("Trace notes")
struct TraceNoteTests {
    @Test("what contact continuity did, in its words")
    func repairs() {
        let cases: [(ContinuityRepair, String)] = [
            (.heldLanding(id: 4), "contact 4 landed beside another; held a frame to see whether it is the same finger"),
            (.handoff(from: 3, to: 5), "contact 5 continues contact 3 (the firmware changed its id)"),
            (.echo(of: 2, by: 7), "contact 7 echoes contact 2 (one finger, two ids); joined"),
            (.teleport(id: 1, distance: 41.6), "contact 1 jumped 42 mm from rest in one report; split into a lift and a new landing"),
            (.released(id: 9), "contact 9 is a finger of its own"),
        ]
        for (repair, text) in cases {
            #expect(InputNote.repaired(repair).description == text)
        }
    }

    @Test("fingers coming to rest, one or several")
    func rest() {
        #expect(InputNote.cameToRest(fingers: 1).description == "a finger came to rest")
        #expect(InputNote.cameToRest(fingers: 3).description == "3 fingers came to rest")
    }

    @Test("bugs the core caught: deadlines that never end, steps with no edge")
    func bugs() {
        #expect(CoreBug.deadline(name: "knock", .kept).description == "knock: it kept its deadline after it passed; failing it")
        #expect(CoreBug.deadline(name: "chain", .chain(1000)).description
            == "chain: its timeout set 1000 deadlines in a row with no input between; a timeout must stop re-arming; failing it")
        #expect(CoreBug.deadline(name: "tap", .pastEndOfInput).description == "tap: it set a deadline past the end of the input; failing it")
        let step = ImpossibleStep(recognizer: "odd", step: .changed, state: .possible)
        #expect(CoreBug.impossibleStep(step).description == "odd was told changed() while possible; the step was ignored")
        #expect(TransitionCause.impossibleStep(step).description == step.description)
        #expect(ExternalReply.Step.failed(.deadlineInLua).name == .fail)
        #expect(ExternalReply.Step.began(nil).description == "began()")
    }

    @Test("the text line and the JSON line of each")
    func lines() {
        let input = TraceRecord(time: 1.25, device: 0, entry: .input(.cameToRest(fingers: 2)))
        #expect(input.text == "t=1.25 input: 2 fingers came to rest")
        #expect(input.json == #"{"t":1.25,"device":0,"type":"input","text":"2 fingers came to rest"}"#)
        let bug = TraceRecord(time: 2, device: 1, entry: .bug(.deadline(name: "knock", .kept)))
        #expect(bug.text == "t=2 bug: knock: it kept its deadline after it passed; failing it")
        #expect(bug.json == #"{"t":2,"device":1,"type":"bug","text":"knock: it kept its deadline after it passed; failing it"}"#)
    }
}
