import GestureCore

/// Quiet while typing, on one touchpad: a touch that lands while the keyboard
/// says "typing" is left out of every frame until it lifts, as libinput's
/// disable-while-typing ignores it; touches that land later are gestures as
/// usual, even while the ignored one (a resting palm) stays down.
struct TypingFilter {
    /// Touch ids being left out, until they lift.
    private(set) var ignored: Set<Int> = []

    /// The frame without the ignored touches; `quiets` says whether a touch
    /// landing at a time is to be ignored. Newly ignored ids are added to `newlyIgnored`.
    mutating func filter(_ frame: TouchFrame, quiets: (Double) -> Bool, newlyIgnored: inout [Int]) -> TouchFrame {
        var landing = false
        for touch in frame.touches where touch.phase == .began {
            landing = true
            break
        }
        guard landing || !ignored.isEmpty else { return frame }
        var out = frame
        out.touches.removeAll(keepingCapacity: true)
        var dropped = 0
        for touch in frame.touches {
            if touch.phase == .began, !ignored.contains(touch.id), quiets(frame.time) {
                ignored.insert(touch.id)
                newlyIgnored.append(touch.id)
            }
            guard ignored.contains(touch.id) else {
                out.touches.append(touch)
                continue
            }
            dropped += 1
            if !touch.phase.isActive { ignored.remove(touch.id) }
        }
        if dropped > 0, out.reportedFingers > 0 {
            // Fingers the hardware counts beyond its tracked contacts: the ignored ones are among them.
            let left = out.reportedFingers - dropped
            out.reportedFingers = left > out.activeCount ? left : 0
        }
        return out
    }
}
