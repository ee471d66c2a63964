/// When contacts beside the hand count as resting, and when they rejoin it.
public enum RestRule {
    /// Still: within this many mm of one spot (the real holds jitter 0.4–1.4 mm).
    public static let stillRadius = 1.5
    /// ... for this long when another finger lands, s: longer than one hand's
    /// fingers take to land together (up to 111 ms in the real recordings), and
    /// shorter than the 0.2 s a resting finger waited in `two_finger_with_slot_0`.
    public static let stillFor = 0.15
    /// A resting contact that moves this far from where it came to rest rejoins
    /// the hand, mm. A touchpad shifts a still finger by up to 3.1 mm when
    /// another taps beside it (`stationary_finger_shift_with_2nd_finger_tap`).
    public static let wakeDistance = 4.0
    /// A resting contact whose id the firmware drops and gives back on the same
    /// spot within this long is still resting, s (21–40 ms in `finger_crossing`).
    public static let relandWithin = 0.06
}
