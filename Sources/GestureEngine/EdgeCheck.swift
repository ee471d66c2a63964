import GestureCore
import GestureInput

extension Engine {
    /// Edge swipes start within `edge_zone` of an edge, so they need the
    /// surface's size; a device that gives none would never fire them, and
    /// nothing would say why. Said once per device, when the engine first sees
    /// its frames, or when a rules reload binds an edge swipe.
    func checkEdges(device: Int, surface: Surface?) {
        guard surface == nil, let lane = lanes.lane(device), !lane.edgesExplained else { return }
        let rules = runtime.coreRules(forDevice: deviceName(device))
        guard rules.contains(where: { $0.spec.kind == .edgeSwipe }) else { return }
        lane.edgesExplained = true
        let input = lane.inputName.map { $0 == "-" ? "<stdin>" : $0 } ?? "input \(device)"
        console.note("\(input): the touch surface's size is unknown, so edge-swipe rules cannot fire; "
            + "give the axis ranges (an NDJSON device header with min and max, or a device description)")
    }
}
