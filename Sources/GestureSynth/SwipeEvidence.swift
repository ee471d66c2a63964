import GestureCore

/// When a swipe's evidence is in: the first frame at which all its
/// fingers are down and each has travelled `swipe_min_distance` from where it
/// landed. No recognizer can be sure of a swipe sooner, so a decision is
/// measured from here: the time after it is the recognizer's own waiting.
/// scripts/bench-evidence computes the same from NDJSON.
public struct SwipeEvidence: Equatable, Sendable {
    /// When its first finger landed and its last lifted.
    public var firstLanding: Double
    public var lastLift: Double
    /// The most fingers down at once: the swipe's finger count.
    public var fingers: Int
    /// The evidence point; nil when a finger lifted before every finger had
    /// travelled the distance (a swipe only its lift can decide).
    public var evidence: Double?

    public init(firstLanding: Double, lastLift: Double, fingers: Int, evidence: Double?) {
        self.firstLanding = firstLanding
        self.lastLift = lastLift
        self.fingers = fingers
        self.evidence = evidence
    }

    /// One entry per touch sequence (first landing to last lift) of `frames`,
    /// positions in mm. A sequence still open at the end is left out: its last
    /// lift is not known.
    public static func measure(_ frames: [TouchFrame], minDistance: Double = Threshold.swipeMinDistance.defaultValue) -> [SwipeEvidence] {
        var result: [SwipeEvidence] = []
        var landed: [Int: Vector] = [:]
        var down: [Int: Vector] = [:]
        var start = 0.0
        var most = 0
        var lifted = false
        // Candidate evidence times with the count down at each: the count is
        // only known at the end, so the first frame that meets it is chosen then.
        var candidates: [(time: Double, count: Int)] = []
        for frame in frames {
            for touch in frame.touches {
                switch touch.phase {
                case .began, .moved, .stationary:
                    if down.isEmpty && landed.isEmpty {
                        start = frame.time
                        most = 0
                        lifted = false
                        candidates.removeAll()
                    }
                    if down[touch.id] == nil { landed[touch.id] = touch.position }
                    down[touch.id] = touch.position
                case .ended, .cancelled:
                    guard down.removeValue(forKey: touch.id) != nil else { continue }
                    lifted = true
                }
            }
            most = max(most, down.count)
            if !lifted, !down.isEmpty, down.allSatisfy({ id, p in landed[id].map { p.distance(to: $0) >= minDistance } ?? false }) {
                candidates.append((frame.time, down.count))
            }
            if down.isEmpty, !landed.isEmpty {
                let evidence = candidates.first { $0.count == most }?.time
                result.append(SwipeEvidence(firstLanding: start, lastLift: frame.time, fingers: most, evidence: evidence))
                landed.removeAll()
            }
        }
        return result
    }
}
