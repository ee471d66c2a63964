import GestureEngine
import GestureCore

/// `explain` as the run goes: each touch sequence is explained, handed on and
/// let go once it can no longer change, so memory does not grow with the input.
final class ExplainSession: EngineObserver {
    private let capture = SessionCapture()
    /// Takes each sequence explained; false when nothing more is wanted.
    private let tell: (Explanation.Sequence) -> Bool
    /// Takes each mouse press explained; false when nothing more is wanted.
    private let tellPress: (Explanation.Press) -> Bool
    private var pressesTold = 0
    private(set) var rules: [Explanation.Rule] = []
    private(set) var tally = ExplanationTally(rules: [])
    private var told = 0
    private var known = 0
    /// The latest frame time seen, on any device.
    private var latest = -Double.infinity
    /// Input seconds after its last frame when a sequence is final whatever
    /// its device does next: far past any tap's wait, so that an idle device
    /// does not hold back another's sequences (and the memory they take).
    static let settled = 10.0

    init(tell: @escaping (Explanation.Sequence) -> Bool, tellPress: @escaping (Explanation.Press) -> Bool = { _ in true }) {
        self.tell = tell
        self.tellPress = tellPress
    }

    /// A mouse's press is final when its button goes up: told at once.
    func engine(_ engine: Engine, mouse press: MousePress) {
        knowRules(engine)
        pressesTold += 1
        let explained = Explanation.press(number: pressesTold, press, rules: rules)
        tally.add(explained)
        if !tellPress(explained) { engine.stop() }
    }

    private func knowRules(_ engine: Engine) {
        guard rules.isEmpty else { return }
        rules = ExplainRequest.rules(of: engine)
        tally = ExplanationTally(rules: rules)
    }

    func engine(_ engine: Engine, sawFrame frame: TouchFrame) {
        capture.engine(engine, sawFrame: frame)
        latest = max(latest, frame.time)
        // Only a sequence that began (or time passing) can make an earlier one final.
        let stale = capture.sequences.first.map { latest - $0.end > Self.settled } ?? false
        guard capture.sequences.count != known || stale else { return }
        tellFinished(engine, all: false)
        known = capture.sequences.count
    }

    func engine(_ engine: Engine, delivered delivery: Delivery) {
        capture.engine(engine, delivered: delivery)
    }

    func engine(_ engine: Engine, traced record: TraceRecord) {
        capture.engine(engine, traced: record)
    }

    /// The end of the input: what is left is told.
    func finish(_ engine: Engine) {
        tellFinished(engine, all: true)
    }

    /// A sequence is final once two later ones began on its device (the next
    /// may still decide its taps, a double tap's first, and decisions that come
    /// late, a tap's waiting time, are dated before the one after) and no
    /// gesture of it is still held, or once `settled` seconds of input passed
    /// after it.
    private func tellFinished(_ engine: Engine, all: Bool) {
        knowRules(engine)
        while let first = capture.sequences.first {
            let later = capture.sequences.indices.dropFirst().filter { capture.sequences[$0].device == first.device }
            // A gesture of it still held (requires_failure_of) is told with it when released or dropped.
            let waiting = capture.oldestHeld.map { $0 <= first.end } ?? false
            guard all || (later.count >= 2 && !waiting) || latest - first.end > Self.settled else { break }
            let next = later.first.map { (number: told + 1 + $0, sequence: capture.sequences[$0]) }
            told += 1
            let explained = Explanation.sequence(number: told, first, next: next, rules: rules)
            tally.add(explained)
            capture.release(first: 1)
            if !tell(explained) { return engine.stop() }
        }
        known = capture.sequences.count
    }
}
