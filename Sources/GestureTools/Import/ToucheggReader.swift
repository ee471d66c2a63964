/// Reads Touchégg's touchegg.conf: `<application name="...">` sections of
/// `<gesture type fingers direction>`, each with an `<action type>` whose
/// settings are child elements (Touchégg 2.x) or its text (1.x, `BUTTON=3`).
public enum ToucheggReader {
    static let windowActions: Set<String> = [
        "MAXIMIZE_RESTORE_WINDOW", "MINIMIZE_WINDOW", "TILE_WINDOW", "FULLSCREEN_WINDOW", "CLOSE_WINDOW",
        "CHANGE_DESKTOP", "SHOW_DESKTOP", "CHANGE_VIEWPORT", "MOVE_WINDOW", "RESIZE_WINDOW", "DRAG_AND_DROP",
        "SCROLL", "MOUSE_CLICK", "MOUSE_WHEEL_UP", "MOUSE_WHEEL_DOWN", "MINIMIZE", "NO_ACTION",
    ]

    public static func read(_ bytes: [UInt8], name: String) -> ImportResult {
        var result = ImportResult(format: .touchegg)
        let document = XMLElementTree.read(bytes, name: name)
        var refused = false
        for problem in document.problems {
            if problem.message.hasPrefix("Extra content at the end of the document") {
                result.warning(problem.line, "a second root element begins here; Touchégg reads only the first <touchégg>, and so does import")
            } else {
                result.error(problem.line, "XML: \(problem.message); Touchégg refuses the file: fix the XML here")
                refused = true
            }
        }
        guard let root = document.root else {
            if !refused { result.error(1, "no XML element; a Touchégg file is <touchégg> ... </touchégg>") }
            return result
        }
        // A recovered tree of a file Touchégg refuses would import rules Touchégg never ran.
        if refused && result.diagnostics.contains(where: { $0.severity == .error && $0.line == 1 }) { return result }
        if root.name != "touchégg" {
            result.warning(root.line, "the root element is <\(LuaText.printable(root.name))>; Touchégg looks for <touchégg>")
        }
        for section in root.children {
            switch section.name {
            case "settings":
                readSettings(section, into: &result)
            case "application":
                readApplication(section, into: &result)
            default:
                result.warning(section.line, "<\(LuaText.printable(section.name))> is neither <settings> nor <application>; Touchégg ignores it, and so does import")
            }
        }
        return result
    }

    static func readSettings(_ settings: XMLTreeElement, into result: inout ImportResult) {
        for property in settings.children where property.name == "property" {
            let key = property.attribute("name") ?? "?"
            let value = property.text.trimmingWhitespace
            if key == "composed_gestures_time", let ms = Double(value), ms >= 50, ms <= 2000 {
                result.settings.append(ImportedSetting(line: property.line, key: "tap_interval", value: ms / 1000, note: "composed_gestures_time \(LuaText.printable(value)) ms: the time between the taps of a double tap, gesturemap's tap_interval (seconds)"))
            } else {
                result.settings.append(ImportedSetting(line: property.line, note: "\(LuaText.printable(key)) \(LuaText.printable(value)): Touchégg's own setting (animations, colours, thresholds in percent of the gesture); no config key carries it"))
            }
        }
    }

    static func readApplication(_ application: XMLTreeElement, into result: inout ImportResult) {
        let names = (application.attribute("name") ?? "All").split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        let apps: [String?] = names.contains("All") || names.isEmpty ? [nil] : names.map { Optional($0) }
        for gesture in application.children {
            guard gesture.name == "gesture" else {
                result.warning(gesture.line, "<\(LuaText.printable(gesture.name))> outside a <gesture>; Touchégg ignores it, and so does import")
                continue
            }
            for app in apps {
                if let binding = readGesture(gesture, app: app, into: &result) {
                    result.bindings.append(binding)
                }
            }
        }
    }

    static func readGesture(_ gesture: XMLTreeElement, app: String?, into result: inout ImportResult) -> ImportedBinding? {
        let type = (gesture.attribute("type") ?? "").uppercased()
        let directionWord = (gesture.attribute("direction") ?? "").uppercased()
        guard let fingers = Int(gesture.attribute("fingers")?.trimmingWhitespace ?? "") else {
            result.warning(gesture.line, "the gesture has no finger count (fingers=\"3\"); Touchégg ignores it, and so does import")
            return nil
        }
        var kind: ImportedBinding.Kind
        var direction: String?
        var taps = 1
        var notes: [String] = []
        var unsupported: String?
        switch type {
        case "SWIPE", "DRAG":
            kind = .swipe
            switch directionWord {
            case "UP", "DOWN", "LEFT", "RIGHT": direction = directionWord.lowercased()
            case "ALL", "": direction = nil
            default:
                result.warning(gesture.line, "a swipe's direction is UP, DOWN, LEFT or RIGHT, not \"\(LuaText.printable(directionWord))\"; Touchégg never matches it")
                return nil
            }
        case "PINCH":
            kind = .pinch
            switch directionWord {
            case "IN", "OUT": direction = directionWord.lowercased()
            case "ALL", "": direction = nil
            default:
                result.warning(gesture.line, "a pinch's direction is IN or OUT, not \"\(LuaText.printable(directionWord))\"; Touchégg never matches it")
                return nil
            }
        case "TAP":
            kind = .tap
        case "DOUBLE_TAP":
            kind = .tap
            taps = 2
        case "TAP_AND_HOLD":
            kind = .longPress
            if !["", "ALL"].contains(directionWord) {
                unsupported = "Touchégg 1.x's TAP_AND_HOLD \(directionWord) (hold, then move \(directionWord.lowercased())) has no gesturemap equivalent"
            }
        case "ROTATE":
            kind = .rotate
            switch directionWord {
            case "RIGHT": direction = "clockwise"
            case "LEFT": direction = "counterclockwise"
            default: direction = nil
            }
            if direction != nil { notes.append("Touchégg 1.x's ROTATE \(directionWord) read as \(direction ?? ""), an assumption: its documentation says only LEFT and RIGHT") }
        default:
            result.warning(gesture.line, "unknown gesture type \"\(LuaText.printable(type))\"; Touchégg knows SWIPE, PINCH and TAP (1.x also DRAG, DOUBLE_TAP, TAP_AND_HOLD, ROTATE); ignored")
            return nil
        }
        let actions = gesture.children.filter { $0.name == "action" }
        if actions.count > 1 {
            result.warning(actions[1].line, "a second <action> in one gesture; Touchégg runs the first, and so does import")
        }
        let original = "<gesture type=\"\(type)\" fingers=\"\(fingers)\"\(directionWord.isEmpty ? "" : " direction=\"\(directionWord)\"")>" + (app.map { " in \($0)" } ?? "")
        guard let action = actions.first else {
            return ImportedBinding(line: gesture.line, kind: kind, fingers: fingers, direction: direction, taps: taps, app: app,
                                   action: .unsupported("the gesture has no <action>: Touchégg does nothing for it (NO_ACTION)"), notes: notes, original: original)
        }
        var imported = readAction(action, notes: &notes)
        if let unsupported { imported = .unsupported(unsupported) }
        let actionType = action.attribute("type") ?? "?"
        return ImportedBinding(line: action.line, kind: kind, fingers: fingers, direction: direction, taps: taps, app: app,
                               action: imported, notes: notes, original: original + " " + LuaText.printable(actionType))
    }

    static func readAction(_ action: XMLTreeElement, notes: inout [String]) -> ImportedAction {
        let type = (action.attribute("type") ?? "").uppercased()
        let legacy = action.children.isEmpty
        let text = action.text.trimmingWhitespace
        let repeats = action.childText("repeat")?.lowercased() == "true"
        let on = action.childText("on")?.lowercased()
        switch type {
        case "RUN_COMMAND":
            let command = legacy ? text : (action.childText("command") ?? "")
            guard !command.isEmpty else { return .unsupported("RUN_COMMAND with no <command>: nothing to run") }
            if repeats {
                notes.append("Touchégg repeated it as the gesture went on\(action.childText("decreaseCommand").map { ", and ran \"\(LuaText.printable($0))\" as it came back" } ?? ""); gesturemap runs it once per gesture")
            } else if let on, on != "begin", on != "end" {
                notes.append("<on>\(LuaText.printable(on))</on> is not begin, so Touchégg ran it when the gesture ended; gesturemap runs it when the gesture is recognized")
            }
            // Touchégg runs it with system(): /bin/sh -c, as shell() does.
            return CommandAction.shellCommand(command)
        case "SEND_KEYS":
            let modifiers = legacy ? "" : (action.childText("modifiers") ?? "")
            let keys = legacy ? text : (action.childText("keys") ?? "")
            if !repeats, let on, on != "begin", on != "end" {
                // RepeatedAction::onGestureBegin: onBegin = (on == "begin"); anything else is the end.
                notes.append("<on>\(LuaText.printable(on))</on> is not begin, so Touchégg pressed it when the gesture ended; gesturemap presses it when the gesture is recognized")
            }
            if repeats {
                notes.append("Touchégg pressed it again and again as the gesture went on\(action.childText("decreaseKeys").map { " (\(LuaText.printable($0)) as it came back)" } ?? ""); gesturemap presses it once per gesture")
            }
            guard let combo = KeyTranslation.toucheggCombo(modifiers: modifiers, keys: keys) else {
                return .unsupported("SEND_KEYS with empty <modifiers> and <keys>: nothing to press")
            }
            switch combo {
            case .success(let c): return .keys([c])
            case .failure(let error): return .unsupported("SEND_KEYS \(LuaText.printable(modifiers.isEmpty ? keys : modifiers + "+" + keys)): \(error.message)")
            }
        case "MOUSE_CLICK":
            return .unsupported("Touchégg's MOUSE_CLICK (button \(LuaText.printable(action.childText("button") ?? text))) is a pointer action import does not translate; pointer.click() in Lua can do it")
        default:
            if windowActions.contains(type) {
                return .unsupported("Touchégg's \(type) is a window-manager action gesturemap has no equivalent for")
            }
            return .unsupported("\"\(LuaText.printable(type))\" is not a Touchégg action type; Touchégg does nothing for it")
        }
    }
}
