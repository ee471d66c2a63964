import GestureActions
import GestureScript

/// A `<gesture>`'s `<action>` as Touchégg 2.x carries it out: the settings are
/// the action's child elements, each its first text (`child_value`), a later
/// one of a name replacing an earlier one (xml-config-loader.cpp); each is
/// compared as written (src/actions/*.cpp).
struct ToucheggAction {
    /// The settings by name, the last of each name, with its text.
    var settings: [String: PugiText] = [:]
    var type: PugiText
    /// The action's own text, which Touchégg 1.x held its settings in.
    var legacyText: String

    init(_ node: PugiNode) {
        type = node.attribute("type")
        for child in node.children where child.kind == .element {
            settings[child.name.shown] = child.childValue
        }
        legacyText = node.childValue.shown.trimmingWhitespace
    }

    static let windowActions: Set<String> = [
        "MAXIMIZE_RESTORE_WINDOW", "FULLSCREEN_WINDOW", "MINIMIZE_WINDOW", "TILE_WINDOW", "CLOSE_WINDOW",
        "CHANGE_DESKTOP", "SHOW_DESKTOP",
    ]

    /// What gesturemap does for it, and what differs, in `notes`.
    func imported(notes: inout [String]) -> ImportedAction {
        let typeName = type.shown
        // RepeatedAction::onGestureBegin reads <times> with std::stoi, which throws on text that is no number.
        if let times = settings["times"], CppNumbers.stoiThrows(times.bytes), ["RUN_COMMAND", "SEND_KEYS"].contains(typeName) {
            return .unsupported("<times>\(LuaText.printable(times.shown))</times> is no number: Touchégg's std::stoi throws on it as the gesture begins, so the action never runs")
        }
        switch typeName {
        case "RUN_COMMAND": return runCommand(notes: &notes)
        case "SEND_KEYS": return sendKeys(notes: &notes)
        case "MOUSE_CLICK":
            return .unsupported("Touchégg's MOUSE_CLICK (button \(LuaText.printable(settings["button"]?.shown ?? legacyText))) is a pointer action import does not translate; pointer.click() in Lua can do it")
        case "":
            return .unsupported("the gesture has no <action type>: Touchégg does nothing for it (NO_ACTION)")
        default:
            if Self.windowActions.contains(typeName) {
                return .unsupported("Touchégg's \(typeName) is a window-manager action gesturemap has no equivalent for")
            }
            let upper = typeName.uppercased()
            if upper != typeName && (["RUN_COMMAND", "SEND_KEYS", "MOUSE_CLICK"].contains(upper) || Self.windowActions.contains(upper)) {
                return .unsupported("type=\"\(LuaText.printable(typeName))\": Touchégg compares action types exactly, letter case too, so it does nothing for this gesture; write type=\"\(upper)\"")
            }
            return .unsupported("\"\(LuaText.printable(typeName))\" is no action type of Touchégg 2.x, so it does nothing for this gesture")
        }
    }

    /// `<repeat>` is compared with "true" and `<on>` with "begin", exactly (repeated-action.cpp).
    var repeats: Bool { settings["repeat"]?.bytes == Array("true".utf8) }
    var runsAtBegin: Bool { settings["on"].map { $0.bytes == Array("begin".utf8) } ?? true }

    func runCommand(notes: inout [String]) -> ImportedAction {
        guard let text = settings["command"], !text.isEmpty else {
            if !legacyText.isEmpty {
                return .unsupported("the command is the <action>'s text, as Touchégg 1.x wrote it; 2.x reads <command> and runs nothing here: write <command>\(LuaText.printable(legacyText))</command>, or the rule by hand")
            }
            return .unsupported("RUN_COMMAND with no <command>: nothing to run")
        }
        guard let command = text.string else {
            return .unsupported("the command has bytes that are not UTF-8; Touchégg runs them as they are, but gesturemap's shell() takes text, so it would run other bytes")
        }
        guard command.utf8.count <= ScriptRuntime.maxExecBytes else {
            return .unsupported("the command is \(command.utf8.count) bytes, more than the \(ScriptRuntime.maxExecBytes) shell() passes on")
        }
        if repeats {
            let reverse = settings["decreaseCommand"].map { ", and ran \"\(LuaText.printable($0.shown))\" as it came back" } ?? ""
            notes.append("Touchégg repeated it as the gesture went on\(reverse); gesturemap runs it once per gesture")
        } else if !runsAtBegin {
            notes.append("<on>\(LuaText.printable(settings["on"]?.shown ?? ""))</on> is not begin, so Touchégg ran it when the gesture ended; gesturemap runs it when the gesture is recognized")
        }
        // Touchégg runs it with system(): /bin/sh -c, as shell() does.
        return CommandAction.shellCommand(command)
    }

    func sendKeys(notes: inout [String]) -> ImportedAction {
        // SendKeys::executePrelude splits them at every +, and hands each name to X as it stands.
        let modifiers = Self.split(settings["modifiers"], at: UInt8(ascii: "+"))
        let keys = Self.split(settings["keys"], at: UInt8(ascii: "+"))
        guard !modifiers.isEmpty || !keys.isEmpty else {
            if !legacyText.isEmpty {
                return .unsupported("the keys are the <action>'s text, as Touchégg 1.x wrote them; 2.x reads <modifiers> and <keys> and presses nothing here: write <keys>\(LuaText.printable(legacyText))</keys>, or the rule by hand")
            }
            return .unsupported("SEND_KEYS with empty <modifiers> and <keys>: nothing to press")
        }
        var names: [String] = []
        for name in modifiers + keys {
            guard let text = name.string, KeyCombo.isXKeysymSpelling(text) else {
                let shown = LuaText.printable(name.shown)
                if name.isEmpty {
                    return .unsupported("SEND_KEYS names an empty key (two + together, or one at an end): Touchégg looks it up in X, finds none and presses nothing for it")
                }
                if name.shown.trimmingWhitespace != name.shown {
                    return .unsupported("SEND_KEYS names the key \"\(shown)\", white space included: Touchégg looks it up in X as written, finds none and presses nothing for it; write \(LuaText.printable(name.shown.trimmingWhitespace))")
                }
                return .unsupported("SEND_KEYS names \"\(shown)\", which is no X keysym name import knows, spelt so (X compares letter case and _ too), so it cannot tell which key Touchégg pressed")
            }
            names.append(text)
        }
        if !repeats && !runsAtBegin {
            notes.append("<on>\(LuaText.printable(settings["on"]?.shown ?? ""))</on> is not begin, so Touchégg pressed it when the gesture ended; gesturemap presses it when the gesture is recognized")
        }
        if repeats {
            let reverse = settings["decreaseKeys"].map { " (\(LuaText.printable($0.shown)) as it came back)" } ?? ""
            notes.append("Touchégg pressed it again and again as the gesture went on\(reverse); gesturemap presses it once per gesture")
        }
        let combo = names.joined(separator: "+")
        switch KeyCombo.parse(combo) {
        case .success: return .keys([combo])
        case .failure(let error): return .unsupported("SEND_KEYS \(LuaText.printable(combo)): \(error.message)")
        }
    }

    /// `split(text, delimiter)` in Touchégg's utils/string.cpp (std::getline):
    /// every piece between delimiters, but no empty one after a last delimiter.
    static func split(_ text: PugiText?, at delimiter: UInt8) -> [PugiText] {
        guard let bytes = text?.bytes, !bytes.isEmpty else { return [] }
        var pieces = bytes.split(separator: delimiter, omittingEmptySubsequences: false).map { PugiText(bytes: Array($0)) }
        if bytes.last == delimiter { pieces.removeLast() }
        return pieces
    }
}
