/// What a finished drawing is: a shape, or why it is none. One judgement for a
/// finger's drawing and a mouse's (`MouseShapeRules`), so that a circle is a
/// circle however it was drawn.
extension ShapeRecognizer.Config {
    enum Judgement: Equatable, Sendable {
        /// Smaller than `shape_min_size`: no later stroke can make it a shape.
        case tooSmall(TransitionCause)
        /// No shape a rule binds, yet; `why` is what a rule would need.
        case none(TransitionCause)
        case shape(ShapeMatcher.Match)
    }

    func judge(_ drawing: ShapeRecognizer.Drawing) -> Judgement {
        let size = drawing.size
        if size < minSize { return .tooSmall(.shapeTooSmall(.under("drawn across", size, .shapeMinSize, limit: minSize))) }
        if let refusal = ShapeFilter.refusal(of: drawing.points, path: drawing.path) { return .none(refusal) }
        guard let stroke = ShapeStroke(path: drawing.points), let best = matcher.best(stroke) else { return .none(.straightStroke) }
        if best.needsBend, ShapeBend.refusal(ofDrawing: drawing.points) != nil,
           let next = matcher.ranked(stroke).first(where: { !$0.needsBend }),
           verdict(next, points: drawing.points) == nil {
            // Not round, as it runs straight somewhere: the nearest shape
            // that need not bend all round (a rounded rectangle) may take it.
            return .shape(next)
        }
        if let why = verdict(best, points: drawing.points) { return .none(why) }
        return .shape(best)
    }

    /// Why `match` is not the shape drawn, or nil when it is.
    func verdict(_ match: ShapeMatcher.Match, points: [Vector]) -> TransitionCause? {
        let turn = match.needsCorner ? ShapeCorners.sharpestTurn(ofDrawing: points) : .infinity
        if turn < ShapeCorners.drawnCorner {
            return .shapeWithoutCorner(best: match.name, Measurement("sharpest turn", turn, .minimum, ShapeCorners.drawnCorner, unit: "°", key: nil))
        }
        guard let least = minimum(for: match.name) else { return .shapeUnbound(best: match.name, score: match.score) }
        if match.score < least { return .shapeUnmatched(best: match.name, .under("scored", match.score, .shapeMinScore, limit: least)) }
        // Wandering (docs/shapes.md): a circle that is not round.
        if match.needsBend, let bend = ShapeBend.refusal(ofDrawing: points) { return .shapeStrays(best: match.name, bend) }
        return nil
    }
}
