import CLuaShim
import GestureCore

/// Reads the first argument of `on()`: a shorthand phrase or a spec table.
enum SpecReader {
    static let tableKeys = ["kind", "fingers", "direction", "taps", "edge", "resting"]
    static let maxPhraseBytes = 256

    static func read(_ lua: LuaView, at index: Int32) -> Result<GestureSpec, SpecProblem> {
        switch lua.type(at: index) {
        case .string:
            guard let phrase = lua.string(at: index, limit: maxPhraseBytes) else {
                return .failure("a gesture phrase is at most \(maxPhraseBytes) bytes, such as \"two-finger swipe left\"; this one is \(lua.bytes(at: index)?.count ?? 0)")
            }
            switch PhraseParser.parse(phrase) {
            case .success(let spec): return .success(spec)
            case .failure(let error): return .failure(SpecProblem(error.message))
            }
        case .table:
            return readTable(lua, at: lua_absindex(lua.L, index))
        default:
            return .failure("on() needs a gesture first: a phrase such as \"two-finger swipe left\" or a table such as { kind = \"swipe\", fingers = 2, direction = \"left\" }, not a \(lua.type(at: index).name)")
        }
    }

    private static func readTable(_ lua: LuaView, at t: Int32) -> Result<GestureSpec, SpecProblem> {
        var unknown: [String] = []
        lua.forEachPair(t) { k, _ in
            let name = lua.string(at: k, limit: 64)
            if name.map({ !tableKeys.contains($0) }) ?? true {
                unknown.append(name ?? (lua.type(at: k) == .string ? truncated(lua.bytes(at: k) ?? UnsafeRawBufferPointer(start: nil, count: 0), limit: 64) : "(a \(lua.type(at: k).name) key)"))
            }
        }
        if let first = unknown.sorted().first {
            return .failure("unknown key \"\(first)\" in gesture table; known keys: \(tableKeys.joined(separator: ", "))")
        }

        let kindNames = GestureKind.allCases.map { $0.rawValue }.joined(separator: ", ")
        guard lua.rawField(t, "kind") == .string, let kindName = lua.string(at: -1) else {
            let problem = lua.type(at: -1) == .nil ? "gesture table needs \"kind\"; one of \(kindNames)" : "\"kind\" must be a string; one of \(kindNames)"
            lua.pop()
            return .failure(SpecProblem(problem))
        }
        lua.pop()
        guard let kind = GestureKind(rawValue: kindName) ?? GestureKind.allCases.first(where: { $0.phrase == kindName }) else {
            return .failure("unknown kind \"\(kindName)\"; use one of \(kindNames)")
        }

        var fingers: FingerCount?
        switch lua.rawField(t, "fingers") {
        case .nil: break
        case .number:
            guard let n = lua.integer(at: -1) else { lua.pop(); return .failure("\"fingers\" must be a whole number from 1 to 5, or \"any\"") }
            fingers = .exactly(n)
        case .string where lua.string(at: -1) == "any":
            fingers = .any
        default:
            lua.pop()
            return .failure("\"fingers\" must be a whole number from 1 to 5, or \"any\"")
        }
        lua.pop()

        var direction: Direction?
        switch lua.rawField(t, "direction") {
        case .nil: break
        case .string:
            let name = lua.string(at: -1) ?? ""
            guard let d = Direction(rawValue: name.lowercased()) else {
                lua.pop()
                let allowed = kind.allowedDirections.map { $0.rawValue }.joined(separator: ", ")
                return .failure(SpecProblem("unknown direction \"\(name)\"" + (allowed.isEmpty ? "; a \(kind.phrase) has no direction" : "; use one of \(allowed)")))
            }
            direction = d
        default:
            lua.pop()
            return .failure("\"direction\" must be a string such as \"left\"")
        }
        lua.pop()

        var taps: Int?
        switch lua.rawField(t, "taps") {
        case .nil: break
        case .number:
            guard let n = lua.integer(at: -1) else { lua.pop(); return .failure("\"taps\" must be 1, 2 or 3") }
            taps = n
        default:
            lua.pop()
            return .failure("\"taps\" must be 1, 2 or 3")
        }
        lua.pop()
        if taps != nil && kind != .tap { return .failure("\"taps\" belongs to kind \"tap\", not \"\(kind.rawValue)\"") }

        var edge: Edge?
        switch lua.rawField(t, "edge") {
        case .nil: break
        case .string:
            let name = lua.string(at: -1) ?? ""
            guard let e = Edge(rawValue: name.lowercased()) else {
                lua.pop()
                return .failure("unknown edge \"\(name)\"; use one of left, right, top, bottom")
            }
            edge = e
        default:
            lua.pop()
            return .failure("\"edge\" must be a string: left, right, top or bottom")
        }
        lua.pop()
        if edge != nil && kind != .edgeSwipe { return .failure("\"edge\" belongs to kind \"edge_swipe\", not \"\(kind.rawValue)\"") }
        if kind == .edgeSwipe && edge == nil && direction == nil {
            return .failure("an edge_swipe needs \"edge\": left, right, top or bottom")
        }
        if kind == .edgeSwipe, edge == nil, let direction {
            guard let e = Edge.allCases.first(where: { Direction.inward(from: $0) == direction }) else {
                return .failure("an edge swipe moves left, right, up or down, not \(direction.rawValue)")
            }
            edge = e
        }

        var resting: Int?
        switch lua.rawField(t, "resting") {
        case .nil: break
        case .number:
            guard let n = lua.integer(at: -1) else { lua.pop(); return .failure("\"resting\" must be a whole number from 0 to \(GestureSpec.maxResting)") }
            resting = n
        default:
            lua.pop()
            return .failure("\"resting\" must be a whole number from 0 to \(GestureSpec.maxResting)")
        }
        lua.pop()

        let spec = GestureSpec(kind: kind, fingers: fingers, direction: direction, taps: taps, edge: edge, resting: resting)
        if let problem = spec.validationError() { return .failure(SpecProblem(problem)) }
        return .success(spec)
    }
}

/// Why a spec cannot be read, in words for the rule author.
struct SpecProblem: Error, ExpressibleByStringInterpolation {
    var message: String
    init(_ message: String) { self.message = message }
    init(stringLiteral value: String) { message = value }
    init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
}
