/// The recognizers, made from the active rules: again whenever the rules
/// change, but only between gestures.
extension GestureArena {
    mutating func scheduleRebuild() {
        rebuildPending = true
        rebuildIfQuiet()
    }

    // Inlined: asked after every frame, and almost never pending.
    @inline(__always)
    mutating func rebuildIfQuiet() {
        guard rebuildPending else { return }
        rebuildWhenQuiet()
    }

    private mutating func rebuildWhenQuiet() {
        guard agenda.paused == nil, !stage.tracker.isActive, arbitration.holdsNothing else { return }
        for slot in stage.recognizers.slots where stage.recognizers.deadline(slot) != nil { return }
        rebuildPending = false
        rebuild()
    }

    /// One recognizer per kind some active rule binds, configured from those rules.
    /// The order decides which wins when two recognize in the same frame.
    mutating func rebuild() {
        let active = rules.filter { $0.isActive && !$0.spec.isMouse }.map(\.spec)
        var swipeFingers = FingerMask()
        var swipeEightWay = FingerMask()
        var edgeFingers = FingerMask()
        var kinds = Set<GestureKind>()
        for spec in active {
            kinds.insert(spec.kind)
            if spec.kind == .swipe {
                swipeFingers.insert(spec.fingers)
                if spec.direction?.isDiagonal == true { swipeEightWay.insert(spec.fingers) }
            }
            if spec.kind == .edgeSwipe { edgeFingers.insert(spec.fingers) }
        }
        stage.recognizers.removeAll()
        settled = false
        agenda.newGeneration()
        deadlineChains = DeadlineChains()
        // A click is decided at one frame, before any motion: nothing it could lose to has begun.
        if kinds.contains(.click) {
            stage.recognizers.add(click: ClickRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.edgeSwipe) {
            stage.recognizers.add(edgeSwipe: SwipeRecognizer(config: .init(fingers: edgeFingers, eightWay: FingerMask(), thresholds: thresholds, edgeZone: thresholds[.edgeZone])))
        }
        if kinds.contains(.swipe) {
            stage.recognizers.add(swipe: SwipeRecognizer(config: .init(fingers: swipeFingers, eightWay: swipeEightWay, thresholds: thresholds)))
        }
        if kinds.contains(.pinch) {
            stage.recognizers.add(pinch: TransformRecognizer(measure: .pinch, config: .init(kind: .pinch, rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.rotate) {
            stage.recognizers.add(rotate: TransformRecognizer(measure: .rotate, config: .init(kind: .rotate, rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.longPress) {
            stage.recognizers.add(longPress: LongPressRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.tap) {
            stage.recognizers.add(tap: TapRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        if kinds.contains(.pan) {
            stage.recognizers.add(pan: PanRecognizer(config: .init(rules: active, thresholds: thresholds)))
        }
        addUserGestures(active)
        stage.tracker.tracksRotation = stage.recognizers.tracksRotation
        stage.tracker.tracksStroke = kinds.contains(.swipe) || kinds.contains(.edgeSwipe)
        arbitration.rebuilt(stage.recognizers.slots.map {
            Arbitration.Slot(kind: stage.recognizers.kind($0), name: stage.recognizers.name($0))
        })
    }
}
