/// Easystroke's actions said as rule statements, exactly as Easystroke runs
/// them (actions.cc, actiondb.cc), or why they cannot be.
enum EasystrokeActionText {
    enum Outcome: Equatable {
        /// Statements for the handler.
        case run(String)
        /// Easystroke takes the stroke and does nothing: a rule that does nothing.
        case nothing(String)
        /// Something gesturemap cannot do: the reason.
        case unsupported(String)
    }

    static func outcome(_ action: Easystroke.Action?) -> Outcome {
        guard let action else {
            return .unsupported("the entry has no action; Easystroke runs none for it")
        }
        switch action {
        case .command(let line):
            // Command::run: execlp("/bin/sh", "sh", "-c", cmd).
            guard !line.isEmpty else { return .nothing("an empty command, which sh -c runs as nothing") }
            guard line.utf8.allSatisfy({ $0 != 0 }) else { return .unsupported("the command has a NUL byte, where sh -c would stop") }
            return .run("shell(\(LuaText.literal(line)))")
        case .sendKey(let modifiers, let keysym):
            switch EasystrokeKeys.combo(modifiers: modifiers, keysym: keysym) {
            case .success(let combo): return .run("key(\(LuaText.literal(combo)))")
            case .failure(let reason): return .unsupported(reason.text)
            }
        case .sendText:
            return .unsupported("SendText types text, and gesturemap's rules have no action that types text (key() presses keys); write the key() presses by hand")
        case .scroll:
            return .unsupported("Easystroke's Scroll action turns the mouse's motion into scrolling until the button is let go; gesturemap has no such mode")
        case .ignore:
            return .unsupported("Easystroke's Ignore action lets the stroke button through to the application with the modifiers held; gesturemap has no such action")
        case .button(let modifiers, let button):
            // Easystroke clicks where the stroke ended; a claimed stroke leaves gesturemap's pointer where it began.
            let held = EasystrokeKeys.modifierNames(modifiers)
            return .unsupported("a click of button \(button)\(held.isEmpty ? "" : " with " + held.joined(separator: "+") + " held"), which Easystroke makes where the stroke ended, while a stroke gesturemap claims leaves the pointer where it began; write pointer.click() by hand if a click there suits")
        case .misc(let type):
            switch type {
            case 0: return .nothing("Easystroke's None action does nothing")
            case 1: return .unsupported("Easystroke's Unminimize action restores the window it last minimized; gesturemap has no window actions")
            case 2: return .unsupported("Easystroke's Show/Hide action shows its own window")
            case 3: return .unsupported("Easystroke's Disable action turns Easystroke off; gesturemap's escape chord (Backspace, Escape and Enter) suspends sharing")
            default: return .unsupported("Misc action \(type) is none Easystroke knows (0 to 3)")
            }
        case .modifiers:
            return .unsupported("a bare ModAction, which only holds modifier keys; Easystroke never makes one")
        }
    }

    /// The action in Easystroke's words, for the comment above a rule.
    static func describe(_ action: Easystroke.Action?) -> String {
        guard let action else { return "no action" }
        switch action {
        case .command(let line): return line.isEmpty ? "an empty Command" : "Command \(LuaText.printable(line, limit: 120))"
        case .sendKey(let modifiers, let keysym):
            let name = xKeysymNumbers[keysym] ?? "0x" + String(keysym, radix: 16)
            return "SendKey " + (EasystrokeKeys.modifierNames(modifiers) + [name]).joined(separator: "+")
        case .sendText(let text): return "SendText \(LuaText.printable(text, limit: 60))"
        case .scroll: return "Scroll"
        case .ignore: return "Ignore"
        case .button(_, let button): return "Button \(button)"
        case .misc(let type): return "Misc " + (["None", "Unminimize", "Show/Hide", "Disable"].indices.contains(type) ? ["None", "Unminimize", "Show/Hide", "Disable"][type] : String(type))
        case .modifiers: return "ModAction"
        }
    }
}
