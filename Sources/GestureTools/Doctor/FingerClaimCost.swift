import GestureCore

/// What `config{ claim_fingers = N }` takes from the desktop: every touch that
/// reaches N fingers is gesturemap's, whatever it becomes, so the desktop's
/// own taps, clicks and gestures with that many fingers end with it, bound to
/// a rule or not.
enum FingerClaimCost {
    /// For the rules: what the claim costs in general, by its count.
    static func finding(claimFingers n: Int, shares: Bool) -> DoctorFinding {
        guard shares else {
            return DoctorFinding(.note, "config{ claim_fingers = \(n) } takes effect only with sharing on: config{ share = true }, or run --share")
        }
        let lost: String
        switch n {
        case ...1:
            lost = "the desktop gets nothing from the device: no pointer motion, tap, click or scroll"
        case 2:
            lost = "the desktop gets no two-finger scroll, no tap or click with two fingers down (libinput's right button by a two-finger tap), no pinch, and none of its own gestures of 2 fingers or more"
        case 3:
            lost = "the desktop gets no tap or click with 3 fingers down (libinput's middle button by a 3-finger tap), no three-finger drag, and none of its own gestures of 3 fingers or more"
        default:
            lost = "the desktop gets none of its own gestures of \(n) fingers or more"
        }
        return DoctorFinding(.note, "config{ claim_fingers = \(n) } with share on: every touch of \(n) finger\(n == 1 ? "" : "s") or more is gesturemap's, whatever it becomes: " + lost)
    }

    /// For the desktop's gestures: each way of one of them that the claim takes
    /// and no rule binds, which does nothing while the device is shared.
    static func unboundFindings(desktop name: String, gestures: [DesktopGesture], rules: [GestureRule], claimFingers n: Int) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for gesture in gestures where gesture.fingers.map({ $0 >= n }) ?? true {
            let ways: [[Direction]] = gesture.directions.isEmpty ? [[]] : gesture.directions.map { [$0] }
            let unbound = ways.filter { way in
                let one = DesktopGesture(gesture.kind, fingers: gesture.fingers, way, gesture.action)
                return !rules.contains { one.collides(with: $0.spec) }
            }
            guard !unbound.isEmpty else { continue }
            let taken = DesktopGesture(gesture.kind, fingers: gesture.fingers, unbound.flatMap { $0 }, gesture.action)
            let count = gesture.fingers ?? n
            let example = "\(count)-finger \(phraseKind(gesture.kind))" + (unbound.first?.first.map { " " + $0.rawValue } ?? "")
            findings.append(DoctorFinding(.warning, "claim_fingers = \(n) takes \(name)'s \(taken.phrase) (\(gesture.action)) from it, and no rule binds \(unbound.count == 1 ? "it" : "them"): while the device is shared, \(unbound.count == 1 ? "it does" : "they do") nothing",
                                          fix: "bind \(unbound.count == 1 ? "it" : "each") in the rules (as on(\"\(example)\", function(g) ... end)), or claim only the rules' own gestures: drop claim_fingers and put { claim = true } on each rule that collides with the desktop's"))
        }
        return findings
    }

    /// The rule language's word for the kind.
    private static func phraseKind(_ kind: DesktopGesture.Kind) -> String {
        switch kind {
        case .swipe: return "swipe"
        case .pinch: return "pinch"
        case .hold: return "long press"
        case .tap: return "tap"
        }
    }
}
