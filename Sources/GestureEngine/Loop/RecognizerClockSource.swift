import GestureSystem

/// Input time passing with no input: when a round ends with nothing ready,
/// what the inputs began is closed as a frame, and on a live clock the
/// recognizers' deadlines up to now fire (a long press on a still finger).
final class RecognizerClockSource: LoopSource {
    private unowned let session: Session

    init(session: Session) {
        self.session = session
    }

    func descriptors(into list: inout [PollRequest]) {}

    /// Until the next deadline when input times follow the monotonic clock
    /// (devices, `record` output).
    func deadline(now: Double) -> Double? {
        let engine = session.engine
        guard let deadline = engine.nextDeadline, let latest = engine.latestInputTime, MonotonicClock.isLive(latest) else { return nil }
        return deadline
    }

    func serve(_ round: LoopRound) {
        guard round.isIdle else { return }
        let engine = session.engine
        for input in session.inputs where input.source.isOpen { input.source.decoder.flush(into: session.decoderOutput) }
        // Only to the deadline that woke us: input that came since poll
        // returned is read first, in case it changes what is due after (a
        // second tap landing just before its window closes).
        if let latest = engine.latestInputTime, MonotonicClock.isLive(latest) {
            let now = MonotonicClock.now()
            engine.advanceAll(to: min(now, engine.nextDeadline ?? now))
        }
    }
}
