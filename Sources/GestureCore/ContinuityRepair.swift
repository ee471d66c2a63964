/// What contact continuity did to the input before the recognizers saw it, for `--trace`.
public enum ContinuityRepair: Equatable, Sendable, CustomStringConvertible {
    case heldLanding(id: Int)
    case handoff(from: Int, to: Int)
    case echo(of: Int, by: Int)
    case teleport(id: Int, distance: Double)
    case released(id: Int)

    public var description: String {
        switch self {
        case .heldLanding(let id): return "contact \(id) landed beside another; held a frame to see whether it is the same finger"
        case .handoff(let from, let to): return "contact \(to) continues contact \(from) (the firmware changed its id)"
        case .echo(let of, let by): return "contact \(by) echoes contact \(of) (one finger, two ids); joined"
        case .teleport(let id, let distance): return "contact \(id) jumped \(Int(clamping: distance.rounded())) mm from rest in one report; split into a lift and a new landing"
        case .released(let id): return "contact \(id) is a finger of its own"
        }
    }
}
