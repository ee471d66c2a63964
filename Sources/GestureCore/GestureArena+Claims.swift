extension GestureArena {
    /// Fingers are down and the recognizer of some active claiming rule's
    /// kind has not given up on them: the touches may yet be claimed. A
    /// claimed swipe has also given up once the stroke's direction is settled
    /// as another one: its recognizer is still possible, for the swipe the
    /// stroke is, but no claiming rule wants that swipe, and a shared device's
    /// desktop should have the stroke while it moves, not at its end.
    public var claimMayStillFire: Bool {
        guard stage.tracker.downCount > 0 else { return false }
        let claiming = arbitration.rules.filter { $0.claims && $0.isActive }.map(\.spec)
        guard !claiming.isEmpty else { return false }
        let kinds = Set(claiming.map(\.kind))
        for slot in stage.recognizers.slots where kinds.contains(stage.recognizers.kind(slot)) {
            guard !stage.recognizers.state(slot).isTerminal else { continue }
            let kind = stage.recognizers.kind(slot)
            if kind == .swipe, !claiming.contains(where: { $0.kind == .swipe && swipeMayStillGo($0) }) { continue }
            return true
        }
        return false
    }

    /// Whether the stroke so far may still be the swipe `spec` names: its
    /// direction is not settled yet (shorter than `swipe_min_distance`, or near
    /// the boundary with a neighbour, as the swipe recognizer judges it), or
    /// settled as the one the rule wants.
    private func swipeMayStillGo(_ spec: GestureSpec) -> Bool {
        guard let wanted = spec.direction else { return true }
        let fingers = stage.tracker.fingers
        // Judged in octants where some swipe rule of this finger count names a diagonal, as the recognizer does.
        let eightWay = rules.contains { $0.isActive && $0.spec.kind == .swipe && $0.spec.fingers.matches(fingers) && $0.spec.direction?.isDiagonal == true }
        let classifier = StrokeClassifier(minDistance: thresholds[.swipeMinDistance], maxAngle: thresholds[.swipeMaxAngle])
        guard let stroke = classifier.classify(stage.tracker, eightWay: eightWay),
              !SwipeRecognizer.nearNeighbour(stroke, eightWay: eightWay) else { return true }
        return stroke.direction == wanted
    }
}
