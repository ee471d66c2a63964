import GestureEngine
import GestureCore

/// `draw`'s grey notes: the rules that came close in a sequence and did not
/// fire, each with `explain`'s reason and, where it is cheap to know, the
/// place the deciding happened.
enum DrawMisses {
    /// The most near misses a panel lists; the rest are counted, so that a
    /// rules file with dozens of rules still gives a readable picture.
    static let listed = 4

    static func of(_ sequence: Explanation.Sequence) -> (shown: [SequenceDrawing.Miss], more: Int) {
        let near = sequence.verdicts.filter { isNearMiss($0.verdict) }
        // Rules for as many fingers as touched come first: they are the ones people ask about.
        let fingers = sequence.captured.mostFingers
        let ranked = near.filter { $0.rule.spec.fingers.matches(fingers) } + near.filter { !$0.rule.spec.fingers.matches(fingers) }
        let misses = ranked.map { rule, verdict in
            SequenceDrawing.Miss(position: position(of: verdict, in: sequence.captured), text: "\(rule.label): \(verdict.words)")
        }
        return (Array(misses.prefix(listed)), max(0, misses.count - listed))
    }

    /// A verdict that says why a rule missed a gesture it could have had;
    /// not a rule that was off, handed its tap on, or never got to decide.
    static func isNearMiss(_ verdict: RuleVerdict) -> Bool {
        switch verdict {
        case .failed, .lost, .dropped, .outTapped, .tooLate, .otherGesture, .cooledDown: return true
        case .fired, .takenBy, .continued, .inactive, .undecided: return false
        }
    }

    /// Where the fingers were when the verdict was reached: the centroid of
    /// each path's last point by then, or the gesture's own place.
    static func position(of verdict: RuleVerdict, in sequence: CapturedSequence) -> Vector? {
        switch verdict {
        case .failed(let at, _, _), .lost(let at, _), .tooLate(let at, _), .dropped(let at, _), .cooledDown(let at, _):
            return centroid(of: sequence, at: at)
        case .otherGesture(let e), .outTapped(let e, _):
            return e.position.x.isFinite && e.position.y.isFinite ? e.position : nil
        case .fired, .takenBy, .continued, .inactive, .undecided:
            return nil
        }
    }

    static func centroid(of sequence: CapturedSequence, at time: Double) -> Vector? {
        let points = sequence.paths.compactMap { path -> Vector? in
            guard let k = path.times.lastIndex(where: { $0 <= time }), k < path.points.count else { return nil }
            let p = path.points[k]
            return p.x.isFinite && p.y.isFinite ? p : nil
        }
        guard !points.isEmpty else { return nil }
        return points.reduce(Vector.zero, +) / Double(points.count)
    }
}
