import GestureActions
import Testing
@testable import GestureEngine

@Suite("Pointer packets that wait for their moment")
struct PacketAgendaTests {
    static let press = [VirtualEvent(1, 272, 1), VirtualEvent(0, 0, 0)]
    static let release = [VirtualEvent(1, 272, 0), VirtualEvent(0, 0, 0)]

    @Test("a packet queued behind another goes out after it, never before; each at its moment")
    func order() {
        var agenda = PacketAgenda()
        let first = agenda.add(Self.press, to: .pointer, now: 10, notBefore: 10.2)
        // Due sooner on its own, it still waits for the one before.
        let second = agenda.add(Self.release, to: .pointer, now: 10.01)
        let third = agenda.add(Self.press, to: .touchpad, now: 10.02, gap: PacketAgenda.clickGap)
        #expect(first && second && third)
        #expect(agenda.entries.map(\.due) == [10.2, 10.2, 10.2 + PacketAgenda.clickGap])
        let early = agenda.takeDue(at: 10.1)
        #expect(early.isEmpty)
        let due = agenda.takeDue(at: 10.2)
        #expect(due.map(\.events) == [Self.press, Self.release])
        #expect(agenda.nextDue == 10.2 + PacketAgenda.clickGap)
        let rest = agenda.takeAll()
        #expect(rest.map(\.target) == [.touchpad])
        #expect(agenda.isEmpty && agenda.nextDue == nil)
    }

    @Test("past its capacity a press is refused, a release never is")
    func capacity() {
        var agenda = PacketAgenda()
        var accepted = 0
        for i in 0..<PacketAgenda.capacity where agenda.add(Self.press, to: .pointer, now: Double(i), notBefore: 1000) { accepted += 1 }
        #expect(accepted == PacketAgenda.capacity)
        let refused = agenda.add(Self.press, to: .pointer, now: 0)
        #expect(!refused)
        let released = agenda.add(Self.release, to: .pointer, now: 0, always: true)
        #expect(released)
        #expect(agenda.entries.count == PacketAgenda.capacity + 1)
        #expect(agenda.lastDue == 1000)
    }

    @Test("a loop that comes late sends what was due, and what follows keeps its gap from then: a press never nears the release before it")
    func lateLoop() {
        var agenda = PacketAgenda()
        _ = agenda.add(Self.release, to: .pointer, now: 5, notBefore: 5.01)
        _ = agenda.add(Self.press, to: .pointer, now: 5, gap: PacketAgenda.clickGap)
        #expect(agenda.entries.map(\.due) == [5.01, 5.01 + PacketAgenda.clickGap])
        // Served 100 ms late: only the release goes; the press 30 ms after it went.
        let late = agenda.takeDue(at: 5.11)
        #expect(late.map(\.events) == [Self.release])
        #expect(agenda.nextDue == 5.11 + PacketAgenda.clickGap)
    }
}

