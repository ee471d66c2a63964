/// Matches strokes against templates: the template, of every way it may be
/// drawn, that warps onto the stroke most cheaply (see docs/shapes.md).
public struct ShapeMatcher: Sendable {
    public var templates: [ShapeTemplate]

    public init(templates: [ShapeTemplate]) {
        self.templates = templates
    }

    public struct Match: Equatable, Sendable {
        public var name: String
        /// 1 for a stroke exactly like the template, falling to 0 as it differs.
        public var score: Double
        public var distance: Double
    }

    /// A warp distance at which the score reaches 0. Chosen so that the
    /// default `shape_min_score`, 0.8, falls at a distance of 0.12: every
    /// correct match of the $1 logs' s02 strokes but one is closer, and 97% of
    /// random scribbles are further (docs/shapes.md, "Scores").
    public static let scoreScale = 0.6

    public static func score(distance: Double) -> Double {
        guard distance.isFinite else { return 0 }
        return max(0, 1 - distance / scoreScale)
    }

    /// The best match of each template name, best first.
    public func ranked(_ stroke: ShapeStroke) -> [Match] {
        var warp = WarpDistance()
        var best: [String: Double] = [:]
        var order: [String] = []
        for template in templates {
            var d = best[template.name] ?? .infinity
            if best[template.name] == nil { order.append(template.name) }
            for variant in ShapeMatcher.promising(template.variants, for: stroke) {
                d = min(d, warp.distance(stroke, variant, bound: d))
            }
            best[template.name] = d
        }
        return order.compactMap { name in best[name].map { Match(name: name, score: ShapeMatcher.score(distance: $0), distance: $0) } }
            .sorted { $0.distance < $1.distance }
    }

    public func best(_ stroke: ShapeStroke) -> Match? { ranked(stroke).first }

    /// Warping every start point of a loop is most of the cost of a match; the
    /// few variants closest point for point (no warping) are the ones worth it.
    static let warpedLoopVariants = 4

    static func promising(_ variants: [ShapeStroke], for stroke: ShapeStroke) -> ArraySlice<ShapeStroke> {
        guard variants.count > warpedLoopVariants else { return variants[...] }
        let ranked = variants.map { variant -> (Double, ShapeStroke) in
            var sum = 0.0
            for i in stroke.points.indices { sum += stroke.points[i].distance(to: variant.points[i]) }
            return (sum, variant)
        }.sorted { $0.0 < $1.0 }
        return ranked.prefix(warpedLoopVariants).map(\.1)[...]
    }
}
