/// The 16 shapes of the $1 study (Wobbrock, Wilson and Li, UIST 2007), under
/// its names, defined here by their geometry in a unit box (y down) as the
/// study's figure shows them drawn: corners as polylines, curves as splines.
/// No recorded stroke is used. Each may be drawn either way round, and the
/// closed ones from any point.
public enum BuiltinShapes {
    public static let names = [
        "arrow", "caret", "check", "circle", "delete_mark", "left_curly_brace", "left_sq_bracket", "pigtail",
        "question_mark", "rectangle", "right_curly_brace", "right_sq_bracket", "star", "triangle", "v", "x",
    ]

    public static let templates: [ShapeTemplate] = definitions.compactMap { name, path, loop in
        ShapeTemplate(name: name, path: path, anyDirection: true, loop: loop, turnsToMeet: true, cornersCount: true)
    }

    private static func p(_ points: (Double, Double)...) -> [Vector] { points.map { Vector($0.0, $0.1) } }

    private static let definitions: [(String, [Vector], Bool)] = [
        // A shaft up to the right, then the head: back along the top, and down.
        ("arrow", p((0, 0.8), (1, 0), (0.55, 0.03), (1, 0), (0.98, 0.45)), false),
        ("caret", p((0, 1), (0.5, 0), (1, 1)), false),
        ("check", p((0, 0.55), (0.3, 1), (1, 0)), false),
        ("circle", circle(), true),
        // Down across, back along the bottom, up across: an X closed at its foot.
        ("delete_mark", p((0, 0), (1, 1), (0, 1), (1, 0)), false),
        ("delete_mark", p((1, 0), (0, 1), (1, 1), (0, 0)), false),
        ("left_curly_brace", spline(p((0.45, 0), (0.2, 0.08), (0.2, 0.4), (0, 0.5), (0.2, 0.6), (0.2, 0.92), (0.45, 1))), false),
        ("left_sq_bracket", p((0.4, 0), (0, 0), (0, 1), (0.4, 1)), false),
        // A line that loops once over itself on its way: long, nearly flat
        // tails either side of a loop over the whole height, wider than tall,
        // as the study's own pigtail is drawn (docs/shapes.md, "The shapes").
        ("pigtail", spline(p((0, 0.68), (0.22, 0.66), (0.42, 0.5), (0.55, 0.25), (0.55, 0.06), (0.45, 0), (0.35, 0.1), (0.33, 0.32), (0.4, 0.52), (0.55, 0.64), (0.75, 0.68), (1, 0.64))), false),
        ("question_mark", spline(p((0.05, 0.2), (0.45, 0), (0.9, 0.15), (0.85, 0.45), (0.5, 0.65), (0.45, 0.8), (0.45, 1))), false),
        ("rectangle", p((0, 0), (0, 0.66), (1, 0.66), (1, 0), (0, 0)), true),
        // Many draw it nearly square, corners rounded: nearer a circle than the wide one.
        ("rectangle", p((0, 0), (0, 1), (1, 1), (1, 0), (0, 0)), true),
        ("right_curly_brace", spline(p((0, 0), (0.25, 0.08), (0.25, 0.4), (0.45, 0.5), (0.25, 0.6), (0.25, 0.92), (0, 1))), false),
        ("right_sq_bracket", p((0, 0), (0.4, 0), (0.4, 1), (0, 1)), false),
        // Five points in one stroke, ending where it began.
        ("star", p((0.2, 1), (0.5, 0), (0.8, 1), (0, 0.38), (1, 0.38), (0.2, 1)), true),
        ("triangle", p((0.5, 0), (0, 1), (1, 1), (0.5, 0)), true),
        // Many draw it flat, about twice as wide as tall: far from the tall one.
        ("triangle", p((0.5, 0), (0, 0.55), (1, 0.55), (0.5, 0)), true),
        ("v", p((0, 0), (0.5, 1), (1, 0)), false),
        // One stroke: down across, up the side, down across the other way.
        ("x", p((0, 0), (1, 1), (1, 0), (0, 1)), false),
        ("x", p((1, 0), (0, 1), (0, 0), (1, 1)), false),
    ]

    /// A circle from the top, anticlockwise on screen.
    private static func circle() -> [Vector] {
        (0...64).map { i in
            let degrees = -90 - 360 * Double(i) / 64
            return Vector(0.5 + 0.5 * cosDegrees(degrees), 0.5 + 0.5 * sinDegrees(degrees))
        }
    }

    /// A Catmull-Rom spline through the points, 12 segments between each pair.
    static func spline(_ c: [Vector]) -> [Vector] {
        guard c.count >= 2 else { return c }
        let padded = [c[0]] + c + [c[c.count - 1]]
        var out: [Vector] = []
        for i in 1..<(padded.count - 2) {
            let p0 = padded[i - 1], p1 = padded[i], p2 = padded[i + 1], p3 = padded[i + 2]
            for k in 0..<12 {
                let t = Double(k) / 12, t2 = t * t, t3 = t2 * t
                let a = p1 * 2
                let b = (p2 - p0) * t
                let cc = (p0 * 2 - p1 * 5 + p2 * 4 - p3) * t2
                let d = (p1 * 3 - p0 - p2 * 3 + p3) * t3
                out.append((a + b + cc + d) * 0.5)
            }
        }
        out.append(c[c.count - 1])
        return out
    }
}
