@testable import GestureCore
import Testing

@Suite("The arena's agenda: work in order, and the questions it waits on")
struct StepAgendaTests {
    static let request = ExternalRequest(recognizer: 0, name: "r", device: 0, state: .possible, deadline: nil, event: .reset)

    static func label(_ next: StepAgenda.Next?) -> String {
        switch next {
        case nil: return "nothing"
        case .resume(.gathering(_, _, let slot))?: return "resume gathering at \(slot)"
        case .resume(.resting)?: return "resume resting"
        case .resume(.deadline(_, let due, _))?: return "resume deadline \(due)"
        case .perform(.deadlines(let t))?: return "deadlines \(t)"
        case .perform(.recognizerDeadlines(let t))?: return "recognizer deadlines \(t)"
        case .perform(.finish)?: return "finish"
        case .perform(.finishHeld)?: return "finish held"
        case .perform(let work)?: return "\(work)"
        }
    }

    @Test("work comes out in order; work put first comes before what waits; a paused step before any work")
    func order() {
        var agenda = StepAgenda()
        agenda.append(.deadlines(upTo: 1))
        agenda.append(.finish)
        agenda.first(.recognizerDeadlines(upTo: 1))
        agenda.paused = .gathering(TouchFrame(time: 1), lastOfInstant: true, next: 3)
        var seen: [String] = []
        while let next = agenda.next() { seen.append(Self.label(next)) }
        #expect(seen == ["resume gathering at 3", "recognizer deadlines 1.0", "deadlines 1.0", "finish"])
        #expect(agenda.isEmpty && agenda.paused == nil)
    }

    @Test("while a question waits, nothing is done; once answered, the work goes on")
    func waitsForAnswers() {
        var agenda = StepAgenda()
        agenda.append(.finish)
        agenda.ask(SlotID(index: 2), Self.request)
        agenda.ask(SlotID(index: 2), Self.request)
        #expect(agenda.isAsking)
        #expect(Self.label(agenda.next()) == "nothing")
        #expect(agenda.answered() == SlotID(index: 2))
        // Asked once, however often a step noted it.
        #expect(!agenda.isAsking)
        #expect(Self.label(agenda.next()) == "finish")
    }

    @Test("a retry is asked before the questions already waiting")
    func retryFirst() {
        var agenda = StepAgenda()
        agenda.ask(SlotID(index: 1), Self.request)
        agenda.askFirst(SlotID(index: 4), Self.request)
        #expect(agenda.firstAsked?.slot == SlotID(index: 4))
        #expect(agenda.answered() == SlotID(index: 4))
        #expect(agenda.answered() == SlotID(index: 1))
        #expect(agenda.answered() == nil)
    }

    @Test("an answer to recognizers since rebuilt is dropped, and the same slot may be asked again")
    func generations() {
        var agenda = StepAgenda()
        agenda.ask(SlotID(index: 0), Self.request)
        agenda.newGeneration()
        agenda.ask(SlotID(index: 0), Self.request)
        #expect(agenda.answered() == nil, "asked of the old recognizers")
        #expect(agenda.answered() == SlotID(index: 0))
    }

    @Test("work inserted at a place goes between what was there")
    func insertAt() {
        var agenda = StepAgenda()
        agenda.append(.deadlines(upTo: 1))
        agenda.append(.finish)
        agenda.insert([.finishHeld, .recognizerDeadlines(upTo: 2)], at: 1)
        var seen: [String] = []
        while let next = agenda.next() { seen.append(Self.label(next)) }
        #expect(seen == ["deadlines 1.0", "finish held", "recognizer deadlines 2.0", "finish"])
    }
}
