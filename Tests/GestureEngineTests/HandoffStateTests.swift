@testable import GestureEngine
import Testing

/// The decode-ahead hand-off without threads: each side's request, and what
/// the state machine tells it to do.
@Suite("The hand-off between the decoding thread and the engine's")
struct HandoffStateTests {
    @Test("items go through in order; the consumer waits when nothing is ready and is woken by the next item")
    func order() {
        var state = HandoffState<Int>(capacity: 3, resumeAt: 1)
        guard case .wait = state.take() else { Issue.record("an empty hand-off gave an item"); return }
        do { let outcome = state.put(1); #expect(outcome == .stored(wakeConsumer: true)) }
        do { let outcome = state.put(2); #expect(outcome == .stored(wakeConsumer: false)) }
        guard case .item(1, false) = state.take(), case .item(2, false) = state.take() else {
            Issue.record("items out of order")
            return
        }
    }

    @Test("a producer capacity items ahead waits, and is woken only once the consumer is down to resumeAt")
    func backPressure() {
        var state = HandoffState<Int>(capacity: 3, resumeAt: 1)
        for i in 1...3 { do { let outcome = state.put(i); #expect(outcome == .stored(wakeConsumer: false)) } }
        do { let outcome = state.put(4); #expect(outcome == .wait) }
        // Three ready, then two: not yet down to one.
        guard case .item(1, false) = state.take() else { Issue.record("woke the producer too soon"); return }
        guard case .item(2, true) = state.take() else { Issue.record("did not wake the producer at resumeAt"); return }
        do { let outcome = state.put(4); #expect(outcome == .stored(wakeConsumer: false)) }
        #expect(state.readyCount == 2)
    }

    @Test("closed: what was ready is dropped, a waiting producer is woken, and every later item refused")
    func close() {
        var state = HandoffState<Int>(capacity: 1, resumeAt: 0)
        do { let outcome = state.put(1); #expect(outcome == .stored(wakeConsumer: false)) }
        do { let outcome = state.put(2); #expect(outcome == .wait) }
        let woke = state.close()
        #expect(woke)
        #expect(state.readyCount == 0)
        do { let outcome = state.put(2); #expect(outcome == .refused) }
        var idle = HandoffState<Int>(capacity: 1, resumeAt: 0)
        let wokeIdle = idle.close()
        #expect(!wokeIdle, "no producer waited: none to wake")
    }

    @Test("items given back are reused, at most capacity + 1 of them")
    func spares() {
        var state = HandoffState<Int>(capacity: 2, resumeAt: 0)
        let none = state.reuse()
        #expect(none == nil)
        for i in 1...5 { state.recycle(i) }
        var reused: [Int] = []
        while let item = state.reuse() { reused.append(item) }
        #expect(reused == [3, 2, 1])
    }
}
