/// Whether a shared device's touch sequence may still be claimed, as judged
/// after each step of its core, and the one moment the desktop is to get it
/// back: when the last claim that could take it fails. A sequence whose
/// claims failed at its very first frame (an edge swipe's finger landing
/// away from the edge) goes back at once, not at its lift.
enum ClaimWatch: Equatable {
    /// No sequence judged since the share began.
    case idle
    /// Some claiming rule can still take this sequence.
    case open(sequence: Int)
    /// No claim can take this sequence any more; it was given back.
    case given(sequence: Int)

    /// Judges the sequence after a step; true when it is to go to the
    /// desktop now (once a sequence).
    mutating func judge(sequence: Int, claimMayStillFire: Bool) -> Bool {
        let before = self
        self = claimMayStillFire ? .open(sequence: sequence) : .given(sequence: sequence)
        return !claimMayStillFire && before != .given(sequence: sequence)
    }
}
