/// When a hand's finger count is final for a gesture that commits while its
/// fingers are down (a swipe; a pan of the most fingers any pan rule binds).
extension TouchTracker {
    /// One hand's fingers land within `window` of the first (`swipe_settle`):
    /// the count is final at the first frame after that which lands no finger
    /// and has no landing held back by the continuity stage. Only a frame
    /// settles it: a finger that landed just before the time is reported in the
    /// first frame after it, which must count it. The frame that lands a finger
    /// never settles the count it grew.
    func handHasLanded(at time: Double, window: Double, cause: TransitionCause) -> Bool {
        cause == .frame && time >= sequenceStart + window && time > lastLanding && !landingHeld
    }
}
