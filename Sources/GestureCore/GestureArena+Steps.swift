/// Frames and deadlines, stepped through the continuity stage, the tracker,
/// the recognizers and arbitration, in order; a step that waits on a Lua
/// recognizer's answer stops, and the agenda keeps the rest.
extension GestureArena {
    /// Does the work in order until it is done or waits on a question.
    mutating func run(into out: inout [Delivery]) {
        defer { noteWaiting() }
        while let next = agenda.next() {
            switch next {
            case .resume(let stopped): resume(stopped, into: &out)
            case .perform(let work): perform(work, into: &out)
            }
        }
    }

    private mutating func perform(_ work: StepAgenda.Work, into out: inout [Delivery]) {
        switch work {
        case .deadlines(let time):
            fireDeadlines(upTo: time, into: &out)
        case .recognizerDeadlines(let time):
            fireRecognizerDeadlines(upTo: time, into: &out)
        case .input(let frame):
            take(frame, into: &out)
        case .part(let frame, let lastOfInstant):
            step(frame, lastOfInstant: lastOfInstant, into: &out)
        case .afterRest(let frame, let lastOfInstant):
            stepAfterRest(frame, lastOfInstant: lastOfInstant, into: &out)
        case .finish:
            agenda.first(latestDue.map { .finishDeadlines(horizon: $0) } ?? .finishHeld)
        case .finishDeadlines(let horizon):
            finishDeadlines(horizon: horizon, into: &out)
        case .finishHeld:
            finishHeld(into: &out)
        }
    }

    private mutating func resume(_ stopped: StepAgenda.Paused, into out: inout [Delivery]) {
        switch stopped {
        case .gathering(let frame, let lastOfInstant, let next):
            gather(frame, lastOfInstant: lastOfInstant, from: next, into: &out)
        case .resting(let frame, let next):
            restRecognizers(frame, from: next, into: &out)
        case .deadline(let slot, let due, let time):
            afterDeadline(slot, due: due, into: &out)
            agenda.first(.recognizerDeadlines(upTo: time))
        }
    }

    // MARK: - Frames

    /// An input frame, through the continuity stage.
    mutating func take(_ frame: TouchFrame, into out: inout [Delivery]) {
        deadlineChains.inputArrived()
        // Most frames need no repair: nothing held or renamed, no landing,
        // and no silence long enough for a teleport.
        let mayNeedRepair = !continuity.isIdle || Self.lands(frame) || frame.time - stage.tracker.time >= ContactContinuity.teleportSilence
        if mayNeedRepair, continuity.process(frame, tracker: stage.tracker, into: &repaired) {
            traceRepairs(at: frame.time)
            stepRepaired(into: &out)
        } else {
            step(frame, lastOfInstant: true, into: &out)
        }
    }

    /// The frames the continuity stage made of one, stepped in order: Lua
    /// recognizers see one frame per instant, the last of those at the same
    /// time (docs/lua-api.md). When a step stops for an answer, the parts
    /// left wait behind what it left to do.
    private mutating func stepRepaired(into out: inout [Delivery]) {
        var k = 0
        while k < repaired.count {
            let part = repaired[k]
            k += 1
            let before = agenda.count
            step(part, lastOfInstant: k == repaired.count || repaired[k].time > part.time, into: &out)
            if k < repaired.count, agenda.isAsking || agenda.count != before {
                var rest: [StepAgenda.Work] = []
                while k < repaired.count {
                    let next = repaired[k]
                    k += 1
                    rest.append(.part(next, lastOfInstant: k == repaired.count || repaired[k].time > next.time))
                }
                agenda.insert(rest, at: agenda.count - before)
            }
        }
        repaired.removeAll(keepingCapacity: true)
    }

    private mutating func traceRepairs(at time: Double) {
        guard tracing else { return }
        for repair in continuity.repairs { trace(.input(.repaired(repair)), at: time) }
        continuity.clearRepairs()
    }

    /// One frame through the tracker, the recognizers and arbitration.
    private mutating func step(_ frame: TouchFrame, lastOfInstant: Bool, into out: inout [Delivery]) {
        arbitration.now = max(arbitration.now, frame.time)
        // Only a landing beside fingers already down can bring them to rest; the
        // test is cheap before the call, which would copy the tracker.
        if stage.tracker.downCount > 0, Self.lands(frame), stage.tracker.restsBeforeLanding(frame) {
            agenda.first(.afterRest(frame, lastOfInstant: lastOfInstant))
            rest(before: frame, into: &out)
            return
        }
        stepAfterRest(frame, lastOfInstant: lastOfInstant, into: &out)
    }

    private mutating func stepAfterRest(_ frame: TouchFrame, lastOfInstant: Bool, into out: inout [Delivery]) {
        let decided = sequenceSettled
        stage.tracker.update(with: frame, measuring: !decided)
        guard stage.tracker.handInFrame else { return }
        if let landing = continuity.pendingLanding { stage.tracker.expectLanding(at: landing) }
        // A recognizer that has decided ignores frames until its reset: when
        // all have, none is handed this one (which copied the tracker for each).
        gather(frame, lastOfInstant: lastOfInstant, from: decided ? stage.recognizers.count : 0, into: &out)
    }

    /// Every recognizer has decided the sequence and nothing is held: until
    /// the sequence ends no one reads the hand's shape or path, which cost
    /// most of a frame (most frames of a swipe come after its decision).
    /// A traced run measures them still, for what the trace says.
    private var sequenceSettled: Bool { settled && !tracing && arbitration.holdsNothing }

    /// Every recognizer from slot `start` on sees the frame; a Lua recognizer's
    /// question stops the pass until its answer.
    @inline(__always)
    private mutating func gather(_ frame: TouchFrame, lastOfInstant: Bool, from start: Int, into out: inout [Delivery]) {
        var i = start
        while i < stage.recognizers.count {
            let slot = SlotID(index: i)
            i += 1
            stage.recognizers.handle(slot, frame, tracker: stage.tracker, lastOfInstant: lastOfInstant, into: &transitions)
            if noteQuestion(slot) {
                agenda.paused = .gathering(frame, lastOfInstant: lastOfInstant, next: slot.index + 1)
                return
            }
        }
        if !stage.tracker.isActive {
            // Nothing may stay undecided past the end of its sequence, except
            // recognizers that wait across sequences (a tap waiting for the next).
            for slot in stage.recognizers.slots where waitsForNothing(slot) {
                stage.recognizers.forceFail(slot, at: frame.time, cause: .sequenceEnded, tracker: stage.tracker, into: &transitions)
            }
        }
        resolve(at: frame.time, into: &out)
        if !stage.tracker.isActive { endSequence() }
        rebuildIfQuiet()
    }

    /// The hand's fingers came to rest as another landed: their sequence ends
    /// here (a running gesture ends, an undecided one fails) and the landing
    /// starts the next, with them resting beside it.
    private mutating func rest(before frame: TouchFrame, into out: inout [Delivery]) {
        trace(.input(.cameToRest(fingers: stage.tracker.downCount)), at: frame.time)
        stage.tracker.rest(at: frame.time)
        restRecognizers(frame, from: 0, into: &out)
    }

    private mutating func restRecognizers(_ frame: TouchFrame, from start: Int, into out: inout [Delivery]) {
        var empty = frame
        empty.touches = []
        for slot in stage.recognizers.slots where slot.index >= start {
            let state = stage.recognizers.state(slot)
            if state.isRunning {
                stage.recognizers.handle(slot, empty, tracker: stage.tracker, lastOfInstant: true, into: &transitions)
                if noteQuestion(slot) {
                    agenda.paused = .resting(frame, next: slot.index + 1)
                    return
                }
            } else if state == .possible {
                stage.recognizers.forceFail(slot, at: frame.time, cause: .cameToRest, tracker: stage.tracker, into: &transitions)
            }
        }
        resolve(at: frame.time, into: &out)
        endSequence()
    }

    @inline(__always)
    private static func lands(_ frame: TouchFrame) -> Bool {
        for touch in frame.touches where touch.phase == .began { return true }
        return false
    }

    // MARK: - Deadlines

    private mutating func fireDeadlines(upTo time: Double, into out: inout [Delivery]) {
        // Most frames come before any deadline: nothing to fire, and no table
        // of deadline chains to make.
        guard let earliest = earliestDue, earliest <= time else {
            rebuildIfQuiet()
            return
        }
        agenda.first(.recognizerDeadlines(upTo: time))
        if let due = continuity.deadline, due <= time {
            arbitration.now = max(arbitration.now, due)
            continuity.release(upTo: time, into: &repaired)
            traceRepairs(at: due)
            stepRepaired(into: &out)
        }
    }

    private mutating func fireRecognizerDeadlines(upTo time: Double, into out: inout [Delivery]) {
        while let (slot, due) = stage.recognizers.earliest, due <= time {
            arbitration.now = max(arbitration.now, due)
            stage.recognizers.advance(slot, to: due, tracker: stage.tracker, into: &transitions)
            if noteQuestion(slot) {
                agenda.paused = .deadline(slot, due: due, upTo: time)
                return
            }
            afterDeadline(slot, due: due, into: &out)
            if agenda.isAsking {
                // A reset to be told before the next deadline.
                agenda.first(.recognizerDeadlines(upTo: time))
                return
            }
        }
        rebuildIfQuiet()
    }

    private mutating func afterDeadline(_ slot: SlotID, due: Double, into out: inout [Delivery]) {
        if stage.recognizers.deadline(slot) == due { failIgnoredDeadline(slot, due: due) }
        if deadlineChains.fired(slot.index) >= GestureArena.maxDeadlineChain, stage.recognizers.deadline(slot) != nil {
            failEndlessDeadlines(slot, at: due, .chain(GestureArena.maxDeadlineChain))
        }
        resolve(at: due, into: &out)
        if !stage.tracker.isActive { endSequence() }
    }

    private mutating func failEndlessDeadlines(_ slot: SlotID, at time: Double, _ misuse: DeadlineMisuse) {
        trace(.bug(.deadline(name: slotName(slot), misuse)), at: time)
        stage.recognizers.forceFail(slot, at: time, cause: .endlessDeadlines(misuse), tracker: stage.tracker, into: &transitions)
        if stage.recognizers.deadline(slot) != nil { reset(slot) }
    }

    /// A recognizer must act on its deadline: fire, move it or drop it. One that
    /// keeps it would stall every later deadline, so it is a bug, traced as one,
    /// and the recognizer gives up its gesture rather than hold up the others.
    private mutating func failIgnoredDeadline(_ slot: SlotID, due: Double) {
        trace(.bug(.deadline(name: slotName(slot), .kept)), at: due)
        stage.recognizers.forceFail(slot, at: due, cause: .endlessDeadlines(.kept), tracker: stage.tracker, into: &transitions)
        if stage.recognizers.deadline(slot) == due { reset(slot) }
    }

    private func slotName(_ slot: SlotID) -> String {
        arbitration.slots[slot.index].name ?? arbitration.slots[slot.index].kind.rawValue
    }

    /// Back to `possible`; a Lua recognizer is told, before anything else.
    private mutating func reset(_ slot: SlotID) {
        settled = false
        stage.recognizers.reset(slot)
        _ = noteQuestion(slot)
    }

    // MARK: - The end of input

    /// The deadlines pending as the input ends are followed, in order; one
    /// set past the last of them (a timeout that always re-arms) would be
    /// followed for ever, so its recognizer fails there, as a chain of
    /// after() timers ends with the last timer pending at the end.
    private mutating func finishDeadlines(horizon: Double, into out: inout [Delivery]) {
        if let due = earliestDue, due <= horizon {
            agenda.first([.deadlines(upTo: due), .finishDeadlines(horizon: horizon)])
            return
        }
        var endless: [SlotID] = []
        for slot in stage.recognizers.slots where stage.recognizers.deadline(slot) != nil { endless.append(slot) }
        for slot in endless { failEndlessDeadlines(slot, at: horizon, .pastEndOfInput) }
        if !endless.isEmpty { resolve(at: horizon, into: &out) }
        agenda.first(.finishHeld)
    }

    private mutating func finishHeld(into out: inout [Delivery]) {
        let end = max(arbitration.now, stage.tracker.time)
        arbitration.releaseAll(at: end, pending: &transitions, in: &stage, into: &out)
        resolve(at: end, into: &out)
        if !stage.tracker.isActive { endSequence() }
        rebuildIfQuiet()
    }

    // MARK: - Arbitration

    /// The step's transitions, resolved; most frames change no recognizer's
    /// state, and nothing held waits for a look: nothing to resolve.
    @inline(__always)
    private mutating func resolve(at time: Double, into out: inout [Delivery]) {
        if transitions.isEmpty && !arbitration.mustRecheck { return }
        arbitration.resolve(&transitions, in: &stage, at: time, into: &out)
        // States change only by transitions, all of which pass here.
        settled = stage.recognizers.allTerminal
    }

    private mutating func endSequence() {
        for slot in stage.recognizers.slots where isDone(slot) {
            reset(slot)
            arbitration.sequenceEnded(for: slot)
        }
    }

    /// Still `possible`, with no deadline and nothing spanning sequences: when
    /// its sequence ends, nothing more can happen to it.
    private func waitsForNothing(_ slot: SlotID) -> Bool {
        stage.recognizers.state(slot) == .possible && !stage.recognizers.spansSequences(slot) && stage.recognizers.deadline(slot) == nil
    }

    /// Done with its sequence: reset when the sequence ends.
    private func isDone(_ slot: SlotID) -> Bool {
        stage.recognizers.state(slot).isTerminal || waitsForNothing(slot)
    }
}
