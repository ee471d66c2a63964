/// What a stroke drawn with a held mouse button says as directions: "left",
/// or a sequence, "left-up" for an L drawn left then up. The path is first
/// reduced to its corners (Douglas–Peucker), so that a hand's wobble and a
/// mouse's whole counts make no corner while a drawn one does; each arm is
/// then the nearest of 4 or 8 directions, and arms too short to be meant are
/// left out.
public struct MouseStrokeReading: Sendable {
    /// A point of the path: seconds, and millimetres of mouse travel (y down).
    public struct Point: Equatable, Sendable {
        public var time: Double
        public var x: Double
        public var y: Double

        public init(time: Double, x: Double, y: Double) {
            self.time = time
            self.x = x
            self.y = y
        }
    }

    public struct Stroke: Equatable, Sendable {
        public var directions: [Direction]
        /// Along the reduced path, mm.
        public var length: Double
        public var duration: Double

        public init(directions: [Direction], length: Double, duration: Double) {
            self.directions = directions
            self.length = length
            self.duration = duration
        }

        /// The rule language's spelling (`StrokeDirections.name`): "left",
        /// "left-up", "down-right-up"; "up,left" and "right,down-left" where
        /// hyphens would spell a diagonal or an arm is one.
        public var name: String { StrokeDirections.name(directions) }
    }

    /// Why a path is no stroke, for `explain`.
    public enum Shortfall: Error, Equatable, Sendable, CustomStringConvertible {
        case tooShort(length: Double, needed: Double)
        case tooManyTurns(arms: Int, limit: Int)

        public var description: String {
            switch self {
            case .tooShort(let length, let needed):
                return "it went \(tenths(length)) mm; a stroke goes \(tenths(needed)) mm or more"
            case .tooManyTurns(let arms, let limit):
                return "it turned into \(arms) arms; a stroke has at most \(limit)"
            }
        }

        private func tenths(_ v: Double) -> String {
            let t = (v * 10).rounded()
            guard t.isFinite, abs(t) < 1e12 else { return "?" }
            let whole = Int(t)
            return "\(whole / 10).\(abs(whole % 10))"
        }
    }

    public var eightWay: Bool
    /// The shortest stroke, mm of mouse travel along its path.
    public var minLength: Double
    /// Corners closer to the path's chord than this share of the stroke's
    /// size (its bounding box's diagonal) are a wobble, not a corner...
    public var cornerShare: Double
    /// ...and never closer than this, mm (a small stroke's wobble).
    public var minCorner: Double
    /// An arm shorter than this share of the whole is left out: the hook a
    /// hand makes turning a corner or letting go.
    public var minArmShare: Double
    public var maxArms: Int

    /// 5 mm: well past the 0.4 mm threshold a stroke begins at, so that a
    /// click that slipped is no stroke; a mouse stroke meant as one goes
    /// 10 mm or more. A corner must stand 12% of the stroke's size off the
    /// line (2 mm at least): a straight stroke bows less, an L's corner stands
    /// 35% of its diagonal off it. An arm under 15% of the path is a hook.
    public init(eightWay: Bool = false, minLength: Double = 5, cornerShare: Double = 0.12, minCorner: Double = 2,
                minArmShare: Double = 0.15, maxArms: Int = 4) {
        self.eightWay = eightWay
        self.minLength = minLength
        self.cornerShare = cornerShare
        self.minCorner = minCorner
        self.minArmShare = minArmShare
        self.maxArms = maxArms
    }

    public func read(_ points: [Point]) -> Result<Stroke, Shortfall> {
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite && $0.time.isFinite }
        let path = finite.map { Vector($0.x, $0.y) }
        let duration = (finite.last?.time ?? 0) - (finite.first?.time ?? 0)
        var travelled = 0.0
        for i in path.indices.dropFirst() { travelled += path[i].distance(to: path[i - 1]) }
        guard travelled >= minLength else { return .failure(.tooShort(length: travelled, needed: minLength)) }

        let corners = reduce(path)
        var arms: [(direction: Direction, length: Double)] = []
        for i in corners.indices.dropFirst() {
            let d = path[corners[i]] - path[corners[i - 1]]
            guard let direction = heading(of: d) else { continue }
            arms.append((direction, d.length))
        }
        arms = merged(arms)
        // Leave out hooks, shortest first, until every arm is meant.
        while arms.count > 1 {
            let total = arms.reduce(0) { $0 + $1.length }
            guard let shortest = arms.indices.min(by: { arms[$0].length < arms[$1].length }),
                  arms[shortest].length < minArmShare * total else { break }
            arms.remove(at: shortest)
            arms = merged(arms)
        }
        let length = arms.reduce(0) { $0 + $1.length }
        guard !arms.isEmpty, length >= minLength else { return .failure(.tooShort(length: length, needed: minLength)) }
        guard arms.count <= maxArms else { return .failure(.tooManyTurns(arms: arms.count, limit: maxArms)) }
        return .success(Stroke(directions: arms.map(\.direction), length: length, duration: duration))
    }

    /// Indices of the path's corners, its ends included (Douglas–Peucker,
    /// with a stack: a long hostile path costs no recursion).
    func reduce(_ path: [Vector]) -> [Int] {
        guard path.count > 2 else { return Array(path.indices) }
        var lo = path[0], hi = path[0]
        for p in path {
            lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
        }
        let tolerance = max(minCorner, cornerShare * lo.distance(to: hi))
        var keep = [Bool](repeating: false, count: path.count)
        keep[0] = true
        keep[path.count - 1] = true
        var spans = [(0, path.count - 1)]
        while let (a, b) = spans.popLast() {
            guard b > a + 1 else { continue }
            var farthest = a, distance = 0.0
            for i in (a + 1)..<b {
                let d = offLine(path[i], path[a], path[b])
                if d > distance {
                    distance = d
                    farthest = i
                }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            spans.append((a, farthest))
            spans.append((farthest, b))
        }
        return keep.indices.filter { keep[$0] }
    }

    /// How far `p` lies from the segment a–b.
    private func offLine(_ p: Vector, _ a: Vector, _ b: Vector) -> Double {
        let ab = b - a
        let l2 = ab.dot(ab)
        guard l2 > 0 else { return p.distance(to: a) }
        let t = min(max((p - a).dot(ab) / l2, 0), 1)
        return p.distance(to: a + ab * t)
    }

    /// The nearest direction, four or eight of them (octants split at 22.5°).
    func heading(of d: Vector) -> Direction? {
        guard d.x != 0 || d.y != 0 else { return nil }
        let ax = abs(d.x), ay = abs(d.y)
        if eightWay, min(ax, ay) > StrokeClassifier.tanHalfOctant * max(ax, ay) {
            switch (d.x > 0, d.y > 0) {
            case (true, true): return .downRight
            case (true, false): return .upRight
            case (false, true): return .downLeft
            case (false, false): return .upLeft
            }
        }
        return StrokeClassifier.cardinal(of: d)
    }

    private func merged(_ arms: [(direction: Direction, length: Double)]) -> [(direction: Direction, length: Double)] {
        var out: [(direction: Direction, length: Double)] = []
        for arm in arms {
            if let last = out.last, last.direction == arm.direction {
                out[out.count - 1].length += arm.length
            } else {
                out.append(arm)
            }
        }
        return out
    }
}
