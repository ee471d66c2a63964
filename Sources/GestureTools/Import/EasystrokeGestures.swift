import GestureCore

/// What each recorded stroke becomes in the rules: a direction stroke, a
/// drawn shape, a chord, or nothing (with the reason). Decided for all the
/// file's strokes at once, since gesturemap reads every stroke of a button in
/// 8 directions as soon as one rule of that button names a diagonal, and since
/// two entries of one list that read alike cannot be told apart by direction.
public struct EasystrokeGestures: Sendable {
    public enum Gesture: Hashable, Sendable {
        case stroke(button: String, direction: String)
        case shape(button: String, template: String)
        case chord(button: String, press: String)
        case wheel(button: String, wheel: String)
        /// An additional button acting alone: its click.
        case click(button: String)
    }

    private enum Kind {
        case drawn(button: String, path: [Vector])
        case fixed(Gesture)
        case unsupported(String)
    }

    /// Per stroke id: its gesture, or why it has none.
    private(set) var gestures: [Int: Result<Gesture, EasystrokeKeys.Reason>] = [:]
    /// Shape templates, in the order they are named.
    private(set) var templates: [(name: String, points: [Vector])] = []
    /// The buttons read in 8 directions.
    private(set) var eightWayButtons: Set<String> = []

    static let buttonNames: [Int: String] = [1: "left", 2: "middle", 3: "right", 8: "side", 9: "extra"]
    static let wheelNames: [Int: String] = [4: "up", 5: "down", 6: "left", 7: "right"]

    init(_ lists: EasystrokeLists, strokeButton: Int) {
        let contexts = [lists.root] + lists.apps
        var kinds: [Int: Kind] = [:]
        var order: [Int] = []
        for context in contexts {
            for b in context.bindings where kinds[b.stroke.id] == nil {
                kinds[b.stroke.id] = Self.kind(b.stroke, strokeButton: strokeButton)
                order.append(b.stroke.id)
            }
        }
        var readings4: [Int: [Direction]] = [:]
        var readings8: [Int: [Direction]] = [:]
        for id in order {
            guard case .drawn(_, let path)? = kinds[id] else { continue }
            readings4[id] = EasystrokeStrokeReading.directions(path, eightWay: false)
            readings8[id] = EasystrokeStrokeReading.directions(path, eightWay: true)
        }
        var shapes = Set<Int>()
        var refused: [Int: String] = [:]
        // Until no two entries of a list read alike: those that do become shapes.
        for _ in 0..<64 {
            var byButton: [String: [Int]] = [:]
            for id in order {
                if case .drawn(let button, _)? = kinds[id], !shapes.contains(id) { byButton[button, default: []].append(id) }
            }
            eightWayButtons = []
            for (button, ids) in byButton {
                let count4 = ids.filter { readings4[$0] != nil }.count
                let count8 = ids.filter { readings8[$0] != nil }.count
                let diagonal = ids.contains { readings8[$0]?.contains(where: \.isDiagonal) ?? false }
                if diagonal && count8 > count4 { eightWayButtons.insert(button) }
            }
            gestures = [:]
            for id in order {
                switch kinds[id] {
                case .drawn(let button, _)?:
                    let reading = eightWayButtons.contains(button) ? readings8[id] : readings4[id]
                    if let reading, !shapes.contains(id) {
                        gestures[id] = .success(.stroke(button: button, direction: StrokeDirections.name(reading)))
                    } else {
                        gestures[id] = .success(.shape(button: button, template: ""))
                    }
                case .fixed(let gesture)?: gestures[id] = .success(gesture)
                case .unsupported(let reason)?: gestures[id] = .failure(EasystrokeKeys.Reason(reason))
                case nil: break
                }
                if let reason = refused[id] { gestures[id] = .failure(EasystrokeKeys.Reason(reason)) }
            }
            var changed = false
            for context in contexts {
                var first: [Gesture: EasystrokeLists.Binding] = [:]
                for b in context.bindings {
                    // A shape is its own stroke's template: no other entry reads as it.
                    guard case .success(let g)? = gestures[b.stroke.id] else { continue }
                    if case .shape = g { continue }
                    guard let other = first[g] else {
                        first[g] = b
                        continue
                    }
                    guard other.unique != b.unique else { continue }
                    if case .stroke = g {
                        changed = shapes.insert(b.stroke.id).inserted || changed
                        changed = shapes.insert(other.stroke.id).inserted || changed
                    } else {
                        let reason = "lines \(other.line) and \(b.line) bind the same instant gesture in one list, and Easystroke runs whichever it meets first in an order of memory addresses"
                        for id in [b.stroke.id, other.stroke.id] where refused[id] == nil {
                            refused[id] = reason
                            changed = true
                        }
                    }
                }
            }
            if !changed { break }
        }
        // Shapes are named in the order their strokes are first met.
        for id in order {
            guard case .success(.shape(let button, _))? = gestures[id], case .drawn(_, let path)? = kinds[id] else { continue }
            let name = "easystroke-\(templates.count + 1)"
            templates.append((name, path))
            gestures[id] = .success(.shape(button: button, template: name))
        }
    }

    static func button(of gesture: Gesture) -> String {
        switch gesture {
        case .stroke(let b, _), .shape(let b, _), .chord(let b, _), .wheel(let b, _), .click(let b): return b
        }
    }

    private static func kind(_ stroke: Easystroke.Stroke, strokeButton: Int) -> Kind {
        let held = stroke.trigger == 0 ? strokeButton : stroke.trigger
        // An additional button acting alone ("instant"): Easystroke runs the
        // action at its press, and the desktop gets neither press nor release.
        let alone = stroke.button != 0 && stroke.button == held
        if alone, let wheel = wheelNames[held] {
            return .unsupported("a turn of the wheel \(wheel) alone (an additional button Easystroke acts on at once), and gesturemap's rules take the wheel only with a button or modifier keys held")
        }
        if alone, held == strokeButton {
            return .unsupported("a click of button \(held), the stroke button, alone: Easystroke matches it only while that button acts at once (instant) and draws no strokes, and a rule for it would take every click of it from the desktop")
        }
        guard let button = buttonNames[held] else {
            return .unsupported("it is made with button \(held), and gesturemap binds left (1), middle (2), right (3), side (8) and extra (9)")
        }
        if stroke.timeout {
            return .unsupported("a timeout gesture (the button held still), which gesturemap leaves to the desktop as a long press")
        }
        if stroke.modifiers != Easystroke.Stroke.anyModifier {
            return .unsupported("it is bound to modifier keys held (mask 0x\(String(stroke.modifiers, radix: 16))), which a stroke rule does not take")
        }
        if alone { return .fixed(.click(button: button)) }
        if stroke.button != 0 {
            guard stroke.points.isEmpty else {
                return .unsupported("an instant gesture drawn before the click (\(stroke.points.count) points), while a chord is the click alone")
            }
            if let wheel = wheelNames[stroke.button] { return .fixed(.wheel(button: button, wheel: wheel)) }
            guard let press = buttonNames[stroke.button], press != button else {
                return .unsupported("an instant gesture with button \(stroke.button), which no chord with the \(button) button takes")
            }
            return .fixed(.chord(button: button, press: press))
        }
        guard !stroke.points.isEmpty else {
            return .unsupported("a click of the \(button) button with no stroke, which gesturemap leaves to the desktop")
        }
        guard let path = EasystrokeStrokeReading.millimetres(stroke.points) else {
            return .unsupported("its \(stroke.points.count) points are all in one place: no stroke to draw")
        }
        return .drawn(button: button, path: path)
    }
}
