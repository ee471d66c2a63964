import GestureInput
import Testing
@testable import GestureEngine

@Suite("A shared device's records, bounded on their way to the engine")
struct ShareMailboxTests {
    static func records(_ count: Int, code: UInt16 = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        for i in 0..<count { EvdevEvent(time: Double(i), type: EV.abs, code: code, value: Int32(i)).appendStampedRecord(to: &bytes) }
        return bytes
    }

    static let state: [UInt8] = {
        var bytes: [UInt8] = []
        EvdevEvent(time: 9, type: EV.syn, code: SYN.dropped, value: 0).appendStampedRecord(to: &bytes)
        EvdevEvent(time: 9, type: EV.syn, code: SYN.report, value: 0).appendStampedRecord(to: &bytes)
        return bytes
    }()

    @Test("records pass in order while the engine keeps up")
    func flows() {
        var box = ShareMailbox(capacity: 10 * RawEventDecoder.recordSize)
        Self.records(4).withUnsafeBytes { box.put($0, state: { Self.state }) }
        Self.records(6, code: 1).withUnsafeBytes { box.put($0, state: { Self.state }) }
        let taken = box.take()
        #expect(taken.records == Self.records(4) + Self.records(6, code: 1))
        #expect(taken.dropped == nil)
        #expect(!box.isDropping)
    }

    @Test("past its capacity the reads are dropped and counted; once the engine took what waited, the state follows, and the drop is said with its size")
    func dropsThenResyncs() {
        var box = ShareMailbox(capacity: 10 * RawEventDecoder.recordSize)
        var states = 0
        let state = { () -> [UInt8] in states += 1; return Self.state }
        Self.records(8).withUnsafeBytes { box.put($0, state: state) }
        // Would pass 10: dropped, and so is everything until the engine catches up.
        Self.records(3).withUnsafeBytes { box.put($0, state: state) }
        Self.records(1).withUnsafeBytes { box.put($0, state: state) }
        #expect(box.flow == .dropping(records: 4))
        let first = box.take()
        #expect(first.records == Self.records(8) && first.dropped == nil)
        #expect(states == 0)
        // Caught up, with nothing read since: the state is handed over at once.
        box.resumeIfCaughtUp(state: state)
        #expect(!box.isDropping && states == 1)
        Self.records(2, code: 5).withUnsafeBytes { box.put($0, state: state) }
        let second = box.take()
        #expect(second.records == Self.state + Self.records(2, code: 5))
        #expect(second.dropped == 4)
        #expect(box.take().dropped == nil)
    }

    @Test("a read after the engine caught up ends the drop too, the state first")
    func resumesOnRead() {
        var box = ShareMailbox(capacity: 2 * RawEventDecoder.recordSize)
        Self.records(2).withUnsafeBytes { box.put($0, state: { Self.state }) }
        Self.records(1).withUnsafeBytes { box.put($0, state: { Self.state }) }
        _ = box.take()
        Self.records(1, code: 7).withUnsafeBytes { box.put($0, state: { Self.state }) }
        let taken = box.take()
        #expect(taken.records == Self.state + Self.records(1, code: 7))
        #expect(taken.dropped == 1)
    }
}
