/// When and where the hand began to stroke. A finger may rest or creep before
/// it strokes (the Wacom top swipes rest 0.3 s and drift 4 mm first), and that
/// is no part of the stroke's time or speed. Once begun, a stroke lasts until
/// the lift: a pause within it counts against its speed, as it always did.
public enum StrokeOnset: Equatable, Sendable {
    /// Landed here, too recently to tell its speed. A quick flick may lift
    /// before that: it is measured from its landing.
    case landed(at: Double, from: Vector)
    /// Slower than a creep at this time and path position: no stroke yet.
    case creeping(at: Double, from: Vector)
    /// Stroking since this time, from this path position.
    case stroking(since: Double, from: Vector)

    /// Faster than this over the last 100 ms or so, mm/s, the hand strokes: a
    /// sixth of the way to a swipe's commit speed, and well above the sensor
    /// noise averaged over that window (about 3 mm/s).
    public static let creepSpeed = 20.0
    /// A speed over less time than this is a frame's noise, not a stroke, s.
    public static let minimumWindow = 0.05

    /// `speed` is nil while the window it is measured over is too short to tell.
    mutating func advance(time: Double, position: Vector, speed: Double?) {
        guard let speed else { return }
        switch self {
        case let .landed(at, from), let .creeping(at, from):
            self = speed >= StrokeOnset.creepSpeed ? .stroking(since: at, from: from) : .creeping(at: time, from: position)
        case .stroking:
            break
        }
    }

    public var isStroking: Bool {
        if case .stroking = self { return true }
        return false
    }

    /// When the stroke's clock started.
    public var start: Double {
        switch self {
        case .landed(let t, _), .creeping(let t, _), .stroking(let t, _): return t
        }
    }

    /// Its mean speed, mm/s, up to `time` with the hand at `position`. Over
    /// less than `minimumWindow` a frame's sensor noise reads as speed (a slow
    /// drag whose stroke begins a frame before would be a 150 mm/s flick), so
    /// the time counts as at least that: a flick shorter than it still is one.
    public func speed(at time: Double, position: Vector) -> Double {
        switch self {
        case .creeping: return 0
        case let .landed(since, from), let .stroking(since, from):
            return position.distance(to: from) / max(time - since, StrokeOnset.minimumWindow)
        }
    }
}
