import GestureEngine
import GestureCore

/// What became of one rule in one touch sequence, and why: `explain`'s answer
/// to "why didn't it fire?".
public enum RuleVerdict: Sendable {
    /// The rule received the gesture; `waitedFor` names rules it waited on first.
    case fired(GestureEvent, waitedFor: [String])
    /// Its recognizer failed, for this reason.
    case failed(at: Double, kind: String, TransitionCause)
    /// Its recognizer gave up because another rule won the sequence.
    case lost(at: Double, to: String)
    /// Recognized, but after another gesture had won the sequence.
    case tooLate(at: Double, winner: String)
    /// The gesture was one this rule does not ask for (other fingers, direction, taps).
    case otherGesture(GestureEvent)
    /// A tap rule whose recognizer waited for more taps, and got them.
    case outTapped(GestureEvent, by: String?)
    /// The gesture matched, but another rule of its kind took it (narrower, or defined later).
    case takenBy(String, GestureEvent)
    /// It waited for rules it requires to fail, and one of them was recognized.
    case dropped(at: Double, recognized: [String])
    /// A tap counted with the taps of a later sequence (the first of a double tap).
    case continued(in: Int)
    /// Its gesture came while the rule's cooldown ran: it stepped aside.
    case cooledDown(at: Double, left: Double)
    /// Not live in this sequence: another mode, device or application.
    case inactive
    /// The recognizer had not decided when the input ended.
    case undecided
}

extension RuleVerdict {
    /// A short name for `--json` and for tallies.
    public var outcome: String {
        switch self {
        case .fired: return "fired"
        case .failed: return "failed"
        case .lost: return "lost"
        case .tooLate: return "too_late"
        case .otherGesture: return "other_gesture"
        case .outTapped: return "waited_and_lost"
        case .takenBy: return "taken_by_another_rule"
        case .dropped: return "dropped"
        case .continued: return "continued"
        case .cooledDown: return "cooldown"
        case .inactive: return "inactive"
        case .undecided: return "undecided"
        }
    }

    public var fired: Bool {
        if case .fired = self { return true }
        return false
    }

    /// The sentence `explain` prints after the rule's name.
    public var words: String {
        switch self {
        case .fired(let e, let waited):
            let after = waited.isEmpty ? "" : ", after waiting for \(waited.joined(separator: ", ")) to fail"
            return "fired at \(time(e.time)) s (\(GestureWords.describe(e)))\(after)"
        case .failed(let at, let kind, let cause):
            return "\(kind) failed at \(time(at)) s: " + TerminalText.escaped(cause.description)
        case .lost(let at, let winner):
            return "lost at \(time(at)) s to \(winner), which won the sequence"
        case .tooLate(let at, let winner):
            return "recognized at \(time(at)) s, after \(winner) had won the sequence"
        case .otherGesture(let e):
            return "the gesture was \(GestureWords.withArticle(e)), which this rule does not ask for"
        case .outTapped(let e, let winner):
            let taker = winner.map { ", and went to \($0)" } ?? ""
            return "waited for another tap within tap_interval and lost: the taps went on to \(e.taps)\(taker)"
        case .takenBy(let winner, let e):
            return "the \(GestureWords.describe(e)) went to \(winner), which matches it as well (the narrower rule, or the later one, wins)"
        case .dropped(let at, let recognized):
            return "waited for \(recognized.joined(separator: ", ")) to fail; it was recognized at \(time(at)) s, so this one lost"
        case .continued(let number):
            return "its tap was counted with the next, in sequence \(number)"
        case .cooledDown(let at, let left):
            return "held back by its cooldown (\(TraceRecord.oneDecimal(left)) s left) at \(time(at)) s"
        case .inactive:
            return "not live (another mode, device or application)"
        case .undecided:
            return "its recognizer decided nothing in this sequence"
        }
    }

    private func time(_ t: Double) -> String { fixed(t, 2) }
}
