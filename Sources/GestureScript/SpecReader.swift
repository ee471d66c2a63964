import CLuaShim
import GestureCore

/// Reads the first argument of `on()`: a shorthand phrase or a spec table.
enum SpecReader {
    static let tableKeys = ["kind", "fingers", "direction", "taps", "edge", "resting", "name", "min_score", "button", "where", "press", "wheel"]
    static let maxPhraseBytes = 256

    /// The kinds users make, as far as the rules know them: recognizers defined so far, and shape names.
    struct UserKinds {
        var recognizers: [String] = []
        var shapes: [String] = BuiltinShapes.names
    }

    static func read(_ lua: LuaView, at index: Int32, userKinds: UserKinds = UserKinds()) -> Result<GestureSpec, SpecProblem> {
        switch lua.type(at: index) {
        case .string:
            guard let phrase = lua.string(at: index, limit: maxPhraseBytes) else {
                return .failure("a gesture phrase is at most \(maxPhraseBytes) bytes, such as \"two-finger swipe left\"; this one is \(lua.bytes(at: index)?.count ?? 0)")
            }
            // A recognizer's name is a phrase of its own.
            if userKinds.recognizers.contains(phrase) { return .success(GestureSpec(kind: .custom, name: phrase)) }
            switch PhraseParser.parse(phrase) {
            case .success(let spec):
                do {
                    try checkKnownShape(spec.name, kind: spec.kind, userKinds)
                } catch {
                    return .failure(error)
                }
                return .success(spec)
            case .failure(let error): return .failure(SpecProblem(error.message))
            }
        case .table:
            return readTable(lua, at: lua_absindex(lua.L, index), userKinds: userKinds)
        default:
            return .failure("on() needs a gesture first: a phrase such as \"two-finger swipe left\" or a table such as { kind = \"swipe\", fingers = 2, direction = \"left\" }, not a \(lua.type(at: index).name)")
        }
    }

    private static func readTable(_ lua: LuaView, at t: Int32, userKinds: UserKinds) -> Result<GestureSpec, SpecProblem> {
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

        let kindNames = (GestureKind.builtIn.map { $0.rawValue } + userKinds.recognizers).joined(separator: ", ")
        guard lua.rawField(t, "kind") == .string, let kindName = lua.string(at: -1) else {
            let problem = lua.type(at: -1) == .nil ? "gesture table needs \"kind\"; one of \(kindNames)" : "\"kind\" must be a string; one of \(kindNames)"
            lua.pop()
            return .failure(SpecProblem(problem))
        }
        lua.pop()
        let custom = userKinds.recognizers.contains(kindName) ? kindName : nil
        guard let kind = custom != nil ? .custom : GestureKind.builtIn.first(where: { $0.rawValue == kindName || $0.phrase == kindName }) else {
            return .failure("unknown kind \"\(kindName)\"; use one of \(kindNames)\(userKinds.recognizers.isEmpty ? "" : " (recognizers the rules define above)")")
        }
        var name = custom
        var minScore: Double?
        switch readShapeKeys(lua, at: t, kind: kind, userKinds) {
        case .success(let shape):
            if kind == .shape { name = shape.name }
            minScore = shape.minScore
        case .failure(let problem):
            return .failure(problem)
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
        var arms: [Direction]?
        switch lua.rawField(t, "direction") {
        case .nil: break
        case .string where kind == .stroke:
            // Past the limit, any text longer than a stroke's direction says so.
            switch StrokeDirections.parse(lua.string(at: -1, limit: 1024) ?? String(repeating: "-", count: 1025)) {
            case .success(let read): arms = read
            case .failure(let problem):
                lua.pop()
                return .failure(SpecProblem(problem.description))
            }
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
        if edge != nil && kind != .edgeSwipe && kind != .click {
            return .failure(SpecProblem(SpecValidationError.edgeNotOf(kind).description))
        }
        var side: Edge?
        switch lua.rawField(t, "where") {
        case .nil: break
        case .string where kind == .click:
            let name = lua.string(at: -1, limit: 64) ?? ""
            guard let e = Edge(rawValue: name.lowercased()) else {
                lua.pop()
                return .failure(SpecProblem("unknown place \"\(TerminalText.escaped(String(name.prefix(64))))\"; a click is on the left, right, top or bottom half"))
            }
            side = e
        case .string:
            lua.pop()
            return .failure(SpecProblem(SpecValidationError.sideNotOf(kind).description))
        default:
            lua.pop()
            return .failure("\"where\" must be a string: left, right, top or bottom (the half the fingers click on)")
        }
        lua.pop()
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

        let mouse = kind == .stroke || kind == .chord || kind == .shape || kind == .click
        var button: MouseButton?
        switch readButton(lua, at: t, key: "button", kind: kind, allowed: mouse, owners: "kinds \"stroke\", \"chord\", \"shape\" (drawn with a mouse) and \"click\" (a mouse button's)") {
        case .success(let b): button = b
        case .failure(let problem): return .failure(problem)
        }
        var press: MouseButton?
        switch readButton(lua, at: t, key: "press", kind: kind, allowed: kind == .chord, owners: "kind \"chord\"") {
        case .success(let b): press = b
        case .failure(let problem): return .failure(problem)
        }
        var wheel: Direction?
        switch lua.rawField(t, "wheel") {
        case .nil: break
        case .string where kind == .chord:
            let text = lua.string(at: -1, limit: 64) ?? ""
            guard let d = Direction(rawValue: text.lowercased()), Direction.cardinals.contains(d) else {
                lua.pop()
                return .failure(SpecProblem("unknown wheel turn \"\(TerminalText.escaped(String(text.prefix(64))))\"; the wheel turns up, down, left or right"))
            }
            wheel = d
        case .string:
            lua.pop()
            return .failure("\"wheel\" belongs to kind \"chord\", not \"\(kind.rawValue)\"")
        default:
            lua.pop()
            return .failure("\"wheel\" must be a string: up, down, left or right")
        }
        lua.pop()

        let spec = GestureSpec(kind: kind, fingers: fingers, direction: direction, taps: taps, edge: edge, resting: resting,
                               name: name, minScore: minScore, button: button, arms: arms, side: side, press: press, wheel: wheel)
        do {
            try spec.validate()
        } catch {
            return .failure(SpecProblem(error.description))
        }
        return .success(spec)
    }

    /// A mouse button's name under `key`: nil when absent, a problem when it
    /// is no button or belongs to other kinds.
    private static func readButton(_ lua: LuaView, at t: Int32, key: String, kind: GestureKind, allowed: Bool, owners: String) -> Result<MouseButton?, SpecProblem> {
        defer { lua.pop() }
        switch lua.rawField(t, key) {
        case .nil: return .success(nil)
        case .string where allowed:
            let text = lua.string(at: -1, limit: 64) ?? ""
            guard let b = MouseButton(rawValue: text.lowercased()) else {
                return .failure(SpecProblem("unknown button \"\(TerminalText.escaped(String(text.prefix(64))))\"; a \(kind.rawValue) is made with one of \(MouseButton.names.joined(separator: ", "))"))
            }
            return .success(b)
        case .string:
            return .failure(SpecProblem("\"\(key)\" belongs to \(owners), not \"\(kind.rawValue)\""))
        default:
            return .failure(SpecProblem("\"\(key)\" must be a string: \(MouseButton.names.joined(separator: ", "))"))
        }
    }

    /// `name` and `min_score`, which belong to shapes.
    private static func readShapeKeys(_ lua: LuaView, at t: Int32, kind: GestureKind, _ userKinds: UserKinds) -> Result<(name: String?, minScore: Double?), SpecProblem> {
        var name: String?
        switch lua.rawField(t, "name") {
        case .nil: break
        case .string where kind == .shape:
            let text = lua.string(at: -1, limit: ShapeName.maxBytes * 4) ?? ""
            name = ShapeName.normalize(text)
        case .string:
            lua.pop()
            return .failure("\"name\" in the gesture table names a shape; a rule's own name goes in on()'s options: on(spec, handler, { name = \"...\" })")
        default:
            lua.pop()
            return .failure("\"name\" must be a shape's name, such as \"circle\"")
        }
        lua.pop()
        if let name {
            do {
                try ShapeName.validate(name)
            } catch {
                return .failure(SpecProblem(error.description))
            }
        }
        do {
            try checkKnownShape(name, kind: kind, userKinds)
        } catch {
            return .failure(error)
        }
        var minScore: Double?
        switch lua.rawField(t, "min_score") {
        case .nil: break
        case .number where kind == .shape:
            let n = lua.number(at: -1) ?? -1
            guard n >= 0 && n <= 1 else {
                lua.pop()
                return .failure("\"min_score\" must be a number from 0 to 1, such as 0.85")
            }
            minScore = n
        default:
            lua.pop()
            return .failure(kind == .shape ? "\"min_score\" must be a number from 0 to 1, such as 0.85" : "\"min_score\" belongs to kind \"shape\", not \"\(kind.rawValue)\"")
        }
        lua.pop()
        return .success((name, minScore))
    }

    /// Throws for a shape name no template has.
    static func checkKnownShape(_ name: String?, kind: GestureKind, _ userKinds: UserKinds) throws(SpecProblem) {
        guard kind == .shape, let name, !userKinds.shapes.contains(name) else { return }
        throw SpecProblem("unknown shape \"\(name)\"; known shapes: \(userKinds.shapes.sorted().joined(separator: ", ")) (teach one with gesturemap shape add \(name) RECORDING)")
    }
}

/// Why a spec cannot be read, in words for the rule author.
struct SpecProblem: Error, ExpressibleByStringInterpolation {
    var message: String
    init(_ message: String) { self.message = message }
    init(stringLiteral value: String) { message = value }
    init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
}
