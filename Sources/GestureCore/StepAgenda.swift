/// What the arena's callers asked of it and it has not done yet, in order,
/// and the questions to the Lua recognizers that a step waits on.
///
/// A step that reaches a Lua recognizer cannot call it (the core does no I/O):
/// it asks, stops where it is (`paused`), and leaves the rest of the work
/// here. The caller answers; the answer is handed to the recognizer and the
/// work goes on from where it stopped. Nothing else runs meanwhile, so the
/// order of everything is the order it would have had with an answer at once.
struct StepAgenda: Sendable {
    /// Work asked for, done in order.
    enum Work: Sendable {
        /// Every deadline up to this time (`advance(to:)`): the continuity
        /// stage's first, then the recognizers'.
        case deadlines(upTo: Double)
        case recognizerDeadlines(upTo: Double)
        /// An input frame: through the continuity stage, then its parts.
        case input(TouchFrame)
        case part(TouchFrame, lastOfInstant: Bool)
        /// A part's step after its landing brought the hand to rest.
        case afterRest(TouchFrame, lastOfInstant: Bool)
        case finish
        case finishDeadlines(horizon: Double)
        case finishHeld
    }

    /// Where a step stopped to wait for an answer.
    enum Paused: Sendable {
        /// In its pass over the recognizers, before slot `next`.
        case gathering(TouchFrame, lastOfInstant: Bool, next: Int)
        /// Bringing the hand to rest: running recognizers from slot `next` on.
        case resting(TouchFrame, next: Int)
        /// A recognizer's deadline fired; the rest of the deadline pass follows.
        case deadline(SlotID, due: Double, upTo: Double)
    }

    /// What to do next.
    enum Next: Sendable {
        case resume(Paused)
        case perform(Work)
    }

    /// A question handed out: the recognizer it is for, and the recognizers'
    /// generation it was asked in (`epoch`).
    struct Asked: Sendable {
        var slot: SlotID
        var epoch: Int
        var request: ExternalRequest
    }

    private var work: [Work] = []
    /// Where the step that waits stopped.
    var paused: Paused?
    /// Questions handed out and not answered yet, first asked first.
    private var asking: [Asked] = []
    /// Counts the recognizers' rebuilds: an answer for one since replaced is dropped.
    private(set) var epoch = 0

    var isEmpty: Bool { work.isEmpty }
    var count: Int { work.count }
    var isAsking: Bool { !asking.isEmpty }
    /// The question to answer first.
    var firstAsked: Asked? { asking.first }

    mutating func append(_ item: Work) {
        work.append(item)
    }

    /// Work that must come before everything already waiting.
    mutating func first(_ item: Work) {
        work.insert(item, at: 0)
    }

    mutating func first(_ items: [Work]) {
        work.insert(contentsOf: items, at: 0)
    }

    mutating func insert(_ items: [Work], at index: Int) {
        work.insert(contentsOf: items, at: index)
    }

    /// The next thing to do: the step that stopped, then the work in order;
    /// nil when nothing is left or a question waits for its answer.
    mutating func next() -> Next? {
        guard asking.isEmpty else { return nil }
        if let stopped = paused {
            paused = nil
            return .resume(stopped)
        }
        guard !work.isEmpty else { return nil }
        return .perform(work.removeFirst())
    }

    /// Asks `request` of the recognizer in `slot`, once in this generation.
    mutating func ask(_ slot: SlotID, _ request: ExternalRequest) {
        guard !asking.contains(where: { $0.slot == slot && $0.epoch == epoch }) else { return }
        asking.append(Asked(slot: slot, epoch: epoch, request: request))
    }

    /// Asks before anything else: a retry of the frame the recognizer just failed in.
    mutating func askFirst(_ slot: SlotID, _ request: ExternalRequest) {
        asking.insert(Asked(slot: slot, epoch: epoch, request: request), at: 0)
    }

    /// The first question, now answered: its recognizer, or nil when it was
    /// asked of recognizers since rebuilt (the answer is dropped).
    mutating func answered() -> SlotID? {
        guard !asking.isEmpty else { return nil }
        let asked = asking.removeFirst()
        return asked.epoch == epoch ? asked.slot : nil
    }

    /// The recognizers were rebuilt: questions asked of the old ones are moot.
    mutating func newGeneration() {
        epoch += 1
    }
}
