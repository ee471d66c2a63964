import Glibc

/// The keyboards' descriptors: their events queue up until the touch input's
/// time reaches them (KeyInputs), and a change in the modifiers held goes to
/// the rules.
final class KeyboardSource: LoopSource {
    private unowned let engine: Engine
    private let inputs: KeyInputs

    init(engine: Engine, inputs: KeyInputs) {
        self.engine = engine
        self.inputs = inputs
    }

    var servesWhilePacing: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        for keyboard in inputs.pollable { list.append(PollRequest(fd: keyboard.reader.fd, events: Int16(POLLIN))) }
    }

    func serve(_ round: LoopRound) {
        for keyboard in inputs.pollable where round.isReady(keyboard.reader.fd) { inputs.read(keyboard) }
        engine.keyboardsRead()
    }
}
