/// Packets for the virtual pointer and touchpad that wait for their moment
/// (a double click's second press, a new device's first packets) go out at
/// their deadline, while the loop serves everything else.
final class PointerAgendaSource: LoopSource {
    private unowned let engine: Engine

    init(engine: Engine) {
        self.engine = engine
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {}

    func deadline(now: Double) -> Double? { engine.effects.agenda.nextDue }

    func serve(_ round: LoopRound) {
        engine.sendDuePackets(at: round.now)
    }
}
