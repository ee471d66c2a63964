import Testing
@testable import GestureServe

@Suite("Who gives way: head slots and handshake turns")
struct AdmissionRuleTests {
    static let phone: UInt32 = 0x0a00_0005
    static func stranger(_ n: UInt32) -> UInt32 { 0x0a00_0100 + n }

    @Test("a free slot is taken; an address at its own cap gives way itself, oldest first, even with room elsewhere")
    func ownCap() {
        let slots = HeadSlots(total: 16, perPeer: 4)
        let heads = (0..<4).map { HeadSlots.Head(id: $0, peer: Self.stranger(1), since: Double($0), proven: false) }
        #expect(slots.place(Self.phone, among: heads) == .room)
        #expect(slots.place(Self.stranger(1), among: heads) == .evict(id: 0))
    }

    @Test("full slots: the oldest head of the address holding the most gives way; a head with the token never does")
    func crowd() {
        let slots = HeadSlots(total: 8, perPeer: 4)
        var heads = (0..<3).map { HeadSlots.Head(id: $0, peer: Self.stranger(1), since: 10 + Double($0), proven: false) }
        heads += (3..<7).map { HeadSlots.Head(id: $0, peer: Self.stranger(2), since: 20 + Double($0), proven: false) }
        heads.append(HeadSlots.Head(id: 7, peer: Self.phone, since: 1, proven: false))
        #expect(slots.place(Self.stranger(3), among: heads) == .evict(id: 3))
        // The phone's head, the oldest of all, is not taken while a stranger holds more.
        #expect(slots.place(Self.phone, among: heads) == .evict(id: 3))
        let proven = heads.map { HeadSlots.Head(id: $0.id, peer: $0.peer, since: $0.since, proven: true) }
        #expect(slots.place(Self.stranger(3), among: proven) == .refuse)
        #expect(slots.victim(among: proven) == nil)
    }

    @Test("strangers on as many addresses as there are slots take the phone's head only after every older one of theirs")
    func manyAddresses() {
        let slots = HeadSlots(total: 4, perPeer: 4)
        var heads = (0..<3).map { HeadSlots.Head(id: $0, peer: Self.stranger(UInt32($0)), since: Double($0), proven: false) }
        heads.append(HeadSlots.Head(id: 3, peer: Self.phone, since: 3, proven: false))
        var next = 4
        var evicted: [Int] = []
        for _ in 0..<4 {
            guard case .evict(let id) = slots.place(Self.stranger(UInt32(next)), among: heads) else { break }
            evicted.append(id)
            heads.removeAll { $0.id == id }
            heads.append(HeadSlots.Head(id: next, peer: Self.stranger(UInt32(next)), since: Double(next), proven: false))
            next += 1
        }
        #expect(evicted == [0, 1, 2, 3])
    }

    @Test("handshake turns: one per 1/rate s, the address that had one least recently first, the longest waiting among equals")
    func turns() {
        var turns = HandshakeTurns(rate: 10, now: 0)
        let crowd = (0..<5).map { HandshakeTurns.Waiting(id: $0, peer: Self.stranger(1), since: Double($0) / 100) }
        let present: Set<UInt32> = [Self.stranger(1), Self.phone]
        var waiting = crowd
        #expect(turns.next(among: waiting, present: present, now: 1) == 0)
        waiting.removeFirst()
        // No second turn in the same tenth of a second, whoever waits.
        #expect(turns.next(among: waiting, present: present, now: 1.05) == nil)
        #expect(abs(turns.wait(now: 1.05) - 0.05) < 1e-9)
        // The phone came last, but its address has had no turn: it goes next.
        waiting.append(HandshakeTurns.Waiting(id: 9, peer: Self.phone, since: 1.06))
        #expect(turns.next(among: waiting, present: present, now: 1.1) == 9)
        #expect(turns.next(among: waiting.filter { $0.id != 9 }, present: present, now: 1.25) == 1)
    }
}
