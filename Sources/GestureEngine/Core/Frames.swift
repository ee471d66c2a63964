import GestureCore

/// The per-frame path: a frame to its device's core, the core's questions to
/// the rules' Lua recognizers, its deliveries to the handlers.
extension Engine {
    func process(_ frame: TouchFrame) {
        guard options.timing else { return processFrame(frame) }
        let start = FrameTimer.now()
        processFrame(frame)
        state.timer.record(from: start, to: FrameTimer.now())
    }

    private func processFrame(_ frame: TouchFrame) {
        state.framesProcessed += 1
        if state.watchers.observed, let observer = state.watchers.observer { observer.engine(self, sawFrame: frame) }
        let device = frame.device
        guard device >= 0 else { return }
        // Deadlines and timers before this frame come first, in time order.
        if let due = nextDeadline, due <= frame.time { advanceAll(to: frame.time) }
        if let keys = lanes.keyboards {
            advanceKeys(to: frame.time)
            recognize(quietWhileTyping(frame, keys), device: device)
        } else {
            // The frame as it came: no copy of it to change.
            recognize(frame, device: device)
        }
    }

    private func recognize(_ frame: TouchFrame, device: Int) {
        let lane = lanes.lane(device) ?? lanes.make(device)
        if lane.core == nil {
            lane.core = ArenaBox(newArena(for: device))
            checkEdges(device: device, surface: frame.surface)
        }
        // Neither call can replace the runtime or the core (a reload waits for
        // the loop): they need no reference count of their own, which cost a
        // retain and a release each, a frame.
        let time = frame.time
        Unmanaged.passUnretained(runtime)._withUnsafeGuaranteedRef { $0.advanceClock(to: time) }
        whileArenaWorks {
            var asks = false
            if let core = Unmanaged.passUnretained(lane)._withUnsafeGuaranteedRef({ $0.core.map(Unmanaged.passUnretained) }) {
                core._withUnsafeGuaranteedRef {
                    $0.arena.handle(frame, into: &cores.deliveries)
                    asks = $0.arena.waitsForAnswer
                }
            }
            if asks { answerQuestions(device: device) }
        }
        if !cores.deliveries.isEmpty || tracing { deliver(from: device) }
        if !lanes.shared.isEmpty { settleClaims(device: device) }
        if !effects.pointer.isIdle { endRecognizerHolds(device: device) }
    }

    /// A core's step, with the questions it puts to the rules' Lua recognizers.
    /// Their code may change the rules: the change waits until the step is
    /// done, and is taken then.
    @inline(__always)
    private func whileArenaWorks(_ step: () -> Void) {
        cores.insideArena = true
        step()
        cores.insideArena = false
        syncRules()
    }

    /// What a rule's recognizer pressed for a device's touches goes up when
    /// the last of them lifts.
    private func endRecognizerHolds(device: Int, inputEnded: Bool = false) {
        guard inputEnded || (lanes.lane(device)?.core?.arena.tracker.downCount ?? 0) == 0 else { return }
        undo(ownedBy: .touchSequence(device: device))
    }

    /// A core's step waits on the rules' Lua recognizers: each question is put
    /// to them here, outside the core, and the answer handed back, until the
    /// step is done.
    private func answerQuestions(device: Int) {
        guard let lane = lanes.lane(device), lane.core?.arena.waitsForAnswer == true else { return }
        let driver = runtime.recognizerDriver
        effects.pointer.owner = .touchSequence(device: device)
        defer { effects.pointer.owner = .outside }
        while let question = lane.core?.arena.question {
            var reply = ExternalReply()
            if let driver {
                driver.call(question.request, tracker: question.tracker, into: &reply)
            } else {
                reply.disabled = true
            }
            lane.core?.arena.answer(reply, into: &cores.deliveries)
        }
    }

    /// Input time passed: every recognizer deadline and rule timer up to `time`
    /// fires, earliest first, across all devices.
    func advanceAll(to time: Double) {
        // One input instant, however many timers and deadlines fire in it.
        runtime.beginInstant(at: time)
        while true {
            var arenaDevice = -1
            var arenaDue = Double.infinity
            for device in lanes.all.indices {
                if let due = lanes.all[device]?.core?.arena.nextDeadline, due < arenaDue {
                    arenaDue = due
                    arenaDevice = device
                }
            }
            if lanes.keyboards != nil { advanceKeys(to: min(arenaDue, runtime.nextTimerDeadline ?? arenaDue, time)) }
            if let due = effects.pointer.lingerDue, due <= time, due <= arenaDue, due <= runtime.nextTimerDeadline ?? due {
                releaseLingering(at: due)
                continue
            }
            if let timerDue = runtime.nextTimerDeadline, timerDue <= time, timerDue <= arenaDue {
                runtime.fireTimers(upTo: timerDue)
                if !effects.pointer.isIdle { undo(ownedBy: .outside) }
                continue
            }
            guard arenaDevice >= 0, arenaDue <= time else { break }
            whileArenaWorks {
                lanes.lane(arenaDevice)?.core?.arena.advance(to: arenaDue, into: &cores.deliveries)
                answerQuestions(device: arenaDevice)
            }
            deliver(from: arenaDevice)
            if !lanes.shared.isEmpty { settleClaims(device: arenaDevice) }
            if !effects.pointer.isIdle { endRecognizerHolds(device: arenaDevice) }
            // A deadline that did not move would be fired forever.
            if let again = lanes.lane(arenaDevice)?.core?.arena.nextDeadline, again <= arenaDue { break }
        }
    }

    /// A device's input ended: its pending deadlines fire, in order.
    func finish(device: Int) {
        guard let lane = lanes.lane(device) else { return }
        if lane.recordedMouse != nil { finishRecordedMouse(device: device) }
        if let last = lane.core?.arena.tracker.time { advanceAll(to: last) }
        whileArenaWorks {
            lane.core?.arena.finish(into: &cores.deliveries)
            answerQuestions(device: device)
        }
        deliver(from: device)
        if !effects.pointer.isIdle { endRecognizerHolds(device: device, inputEnded: true) }
    }

    /// A device went away for good (a phone's page): the next on its index starts afresh.
    func forget(device: Int) {
        lanes.lane(device)?.core = nil
    }

    /// Every input ended: timers still pending from `after` run, in order.
    func finishTimers() {
        guard !state.end.isOver else { return }
        runtime.finishTimers()
        if !effects.pointer.isIdle { undo(ownedBy: .outside) }
    }

    /// The earliest deadline of any device, or of any rule timer. Asked
    /// every frame: inlined there, as it was before other files asked too.
    var nextDeadline: Double? {
        @inline(__always) get {
            // Asked every frame; the getter cannot replace the runtime (see recognize).
            var earliest = Unmanaged.passUnretained(runtime)._withUnsafeGuaranteedRef {
                $0.timersPending ? $0.nextTimerDeadline : nil
            } ?? Double.infinity
            if let due = effects.pointer.lingerDue, due < earliest { earliest = due }
            for lane in lanes.all {
                if let due = lane?.core?.arena.nextDeadline, due < earliest { earliest = due }
            }
            return earliest.isFinite ? earliest : nil
        }
    }

    /// The latest input time seen on any device.
    var latestInputTime: Double? {
        var latest = -Double.infinity
        for lane in lanes.all {
            if let t = lane?.core?.arena.tracker.time, t > latest { latest = t }
        }
        return latest.isFinite ? latest : nil
    }

    /// The next deadline of one device's core.
    func deadline(of device: Int) -> Double? {
        lanes.lane(device)?.core?.arena.nextDeadline
    }

    private func newArena(for device: Int) -> GestureArena {
        var arena = GestureArena(rules: runtime.coreRules(forDevice: deviceName(device)), thresholds: runtime.thresholds)
        arena.tracing = tracing
        configureUserGestures(&arena)
        return arena
    }

    private func deliver(from device: Int) {
        if tracing, let lane = lanes.lane(device), let records = lane.core?.arena.traceRecords, !records.isEmpty {
            lane.core?.arena.traceRecords.removeAll()
            for record in records {
                sayTrace(text: record.text, json: record.json)
                state.watchers.observer?.engine(self, traced: record)
            }
        }
        guard !cores.deliveries.isEmpty else { return }
        for delivery in cores.deliveries where !state.end.isOver {
            state.gesturesDelivered += 1
            // The desktop's copy hears first: the Lua handler may take its time.
            if !lanes.shared.isEmpty, delivery.event.isFirstOfGesture { claimIfClaiming(delivery, device: device) }
            if state.watchers.observed, let observer = state.watchers.observer { observer.engine(self, delivered: delivery) }
            if let show = state.watchers.showGesture, delivery.event.isFirstOfGesture { show(delivery.event) }
            dispatchOwning(delivery, device: device)
            // A rule's cooldown runs on every device.
            if delivery.event.isFirstOfGesture, lanes.all.count > 1 {
                for other in lanes.all.indices where other != device { lanes.all[other]?.core?.arena.ruleFired(delivery.rule, at: delivery.event.time) }
            }
        }
        cores.deliveries.removeAll(keepingCapacity: true)
        if effects.launcher.runningCount > 0 { effects.launcher.enforceTimeouts() }
    }

    /// Hands the cores the rules as they are now, when the script changed them
    /// (a mode switch, a binding disabled, a reload).
    func syncRules() {
        guard cores.rulesStale else { return }
        cores.rulesStale = false
        lanes.keyboards?.setQuiet(runtime.thresholds[.typingQuiet])
        for lane in lanes.shared { lane.share.map { $0.update(gateSettings(for: $0)) } }
        for device in lanes.all.indices {
            guard let box = lanes.all[device]?.core else { continue }
            box.arena.replaceRules(runtime.coreRules(forDevice: deviceName(device)), thresholds: runtime.thresholds)
            configureUserGestures(&box.arena)
            checkEdges(device: device, surface: box.arena.tracker.surface)
        }
    }
}
