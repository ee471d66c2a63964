/// Reads libinput-gestures.conf, line by line as libinput-gestures does
/// (`get_conf` in its source): blank lines and lines starting with `#` are
/// skipped; the first word, less a trailing `:`, is `gesture`, `device`,
/// `swipe_threshold` or `timeout`. A gesture line is `gesture TYPE MOTION
/// [FINGERS] COMMAND`, its command split with Python's shlex and run without a shell.
public enum LibinputGesturesReader {
    static let motions: [String: (ImportedBinding.Kind, String?)] = [
        "swipe left": (.swipe, "left"), "swipe right": (.swipe, "right"),
        "swipe up": (.swipe, "up"), "swipe down": (.swipe, "down"),
        "swipe left_up": (.swipe, "up-left"), "swipe right_up": (.swipe, "up-right"),
        "swipe left_down": (.swipe, "down-left"), "swipe right_down": (.swipe, "down-right"),
        "pinch in": (.pinch, "in"), "pinch out": (.pinch, "out"),
        "pinch clockwise": (.rotate, "clockwise"), "pinch anticlockwise": (.rotate, "counterclockwise"),
        "hold on": (.longPress, nil),
    ]

    public static func read(_ bytes: [UInt8]) -> ImportResult {
        var result = ImportResult(format: .libinputGestures)
        let text = String(decoding: bytes, as: UTF8.self)
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = String(raw).trimmingWhitespace
            guard let first = line.first, first != "#" else { continue }
            let (word, rest) = splitFirst(line)
            let key = word.hasSuffix(":") ? String(word.dropLast()) : word
            switch key {
            case "gesture":
                readGesture(rest, line: number, into: &result)
            case "device":
                result.settings.append(ImportedSetting(line: number, note: "device \(LuaText.printable(rest)): libinput-gestures read only this device; give it to gesturemap run as its input (gesturemap devices lists them), or limit a rule with { device = \"...\" }"))
            case "swipe_threshold":
                guard let n = Int(rest), n >= 0 else {
                    result.error(number, "swipe_threshold takes a whole number of libinput's units, 0 or more, not \"\(LuaText.printable(rest))\"; libinput-gestures stops at this line")
                    continue
                }
                result.settings.append(ImportedSetting(line: number, note: "swipe_threshold \(n): the least swipe in libinput's unaccelerated units, not millimetres; no config key carries it (gesturemap's is swipe_min_distance, 10 mm by default)"))
            case "timeout":
                guard let t = Double(rest), t.isFinite, t >= 0 else {
                    result.error(number, "timeout takes seconds, 0 or more, not \"\(LuaText.printable(rest))\"; libinput-gestures stops at this line")
                    continue
                }
                if t >= 0.05 && t <= 5 {
                    result.settings.append(ImportedSetting(line: number, key: "swipe_max_duration", value: t, note: "timeout \(LuaText.number(t)): a swipe or pinch longer than this did nothing; gesturemap's swipe_max_duration is the nearest key (it counts from the stroke's start and applies to swipes only)"))
                } else if t == 0 {
                    result.settings.append(ImportedSetting(line: number, note: "timeout 0: libinput-gestures had no time limit; gesturemap's swipe_max_duration (default 2 s) is at most 5 s, so no config key carries it"))
                } else {
                    result.settings.append(ImportedSetting(line: number, note: "timeout \(LuaText.number(t)): outside swipe_max_duration's range (0.05 to 5 s), so no config key carries it"))
                }
            default:
                result.error(number, "unknown setting \"\(LuaText.printable(key))\"; libinput-gestures knows gesture, device, swipe_threshold and timeout, and stops at this line")
            }
        }
        return result
    }

    static func readGesture(_ fieldsText: String, line: Int, into result: inout ImportResult) {
        let (type, afterType) = splitFirst(fieldsText)
        let (motionWord, afterMotion) = splitFirst(afterType)
        guard !type.isEmpty, !motionWord.isEmpty, !afterMotion.isEmpty else {
            result.error(line, "a gesture line needs a type, a motion and a command, as in: gesture swipe left 3 xdotool key alt+Right")
            return
        }
        let typeName = type.lowercased()
        guard ["swipe", "pinch", "hold", "drag"].contains(typeName) else {
            result.error(line, "unknown gesture \"\(LuaText.printable(type))\"; libinput-gestures knows swipe, pinch, hold and drag")
            return
        }
        var motion = motionWord.lowercased()
        var holdDelay: String?
        if typeName == "hold", let plus = motion.firstIndex(of: "+") {
            holdDelay = String(motion[motion.index(after: plus)...])
            motion = String(motion[..<plus])
        }
        var command = afterMotion
        var fingers: Int?
        let (maybeFingers, afterFingers) = splitFirst(afterMotion)
        if maybeFingers.count == 1, let digit = maybeFingers.first, digit.isASCII, let n = digit.wholeNumberValue {
            fingers = n
            command = afterFingers
        }
        let original = "gesture \(type) \(motionWord)\(fingers.map { " \($0)" } ?? "") \(command)"
        if typeName == "drag" {
            guard motion == "drag" else {
                result.error(line, "gesture drag takes the motion drag, not \"\(LuaText.printable(motionWord))\"")
                return
            }
            result.bindings.append(ImportedBinding(line: line, kind: .pan, fingers: fingers, action: .unsupported("libinput-gestures' drag holds a mouse button down while the fingers move; gesturemap has no rule that drags the pointer for you (pointer.press and pointer.move can, in Lua)"), original: LuaText.printable(original)))
            return
        }
        guard let (kind, direction) = motions["\(typeName) \(motion)"] else {
            let valid = motions.keys.filter { $0.hasPrefix(typeName + " ") }.map { String($0.dropFirst(typeName.count + 1)) }.sorted()
            result.error(line, "gesture \(typeName) does not take the motion \"\(LuaText.printable(motionWord))\"; it takes \(valid.joined(separator: ", "))")
            return
        }
        if let delay = holdDelay, Double(delay) == nil {
            result.error(line, "the hold delay \"\(LuaText.printable(delay))\" must be a number of seconds, as in hold on+1.5")
            return
        }
        guard !command.isEmpty else {
            result.error(line, "no command after the gesture; libinput-gestures stops at this line")
            return
        }
        var notes: [String] = []
        if fingers == nil {
            notes.append("no finger count: any count that has no line of its own, as in libinput-gestures")
        }
        if let delay = holdDelay {
            notes.append("hold on+\(delay): libinput-gestures wanted \(delay) s of holding; gesturemap's long press takes long_press_duration (0.5 s), one value for every rule")
        }
        let argv: [String]
        switch ShellWords.shlexSplit(command) {
        case .success(let words): argv = words
        case .failure(let error):
            result.error(line, "the command cannot be split into words: \(error.message)")
            return
        }
        var action: ImportedAction
        if argv.first == "_internal" {
            action = .unsupported("libinput-gestures' _internal \(argv.dropFirst().joined(separator: " ")) switches workspaces through wmctrl, a window-manager action gesturemap has no equivalent for; exec wmctrl or your desktop's command instead")
        } else if let keys = KeyTranslation.xdotoolKeys(argv) {
            action = .keys(keys)
        } else {
            action = .exec(argv)
            if let program = argv.first, program.hasPrefix("~") || program.contains("$") {
                if let expanded = homeRelative(argv) {
                    action = .exec(expanded)
                    notes.append("libinput-gestures expanded the ~ in the program's name itself; sh -c does it here, and passes the arguments on as they are")
                } else {
                    notes.append("libinput-gestures expanded ~ and $VARIABLES in the program's name; exec does not: write the full path")
                }
            }
            if argv.contains(where: { $0.hasPrefix("#") }) {
                notes.append("the # and what follows are not a comment here: libinput-gestures passed them to the program as arguments, and so does this rule")
            }
        }
        // libinput-gestures acts on a hold when the fingers lift (HOLD.end): a long press's ended phase.
        let phase: ImportedBinding.Phase? = kind == .longPress ? .ended : nil
        result.bindings.append(ImportedBinding(line: line, kind: kind, fingers: fingers, direction: direction, phase: phase, action: action, notes: notes, original: LuaText.printable(original)))
    }

    /// `~/bin/x a b` as `sh -c 'exec ~/'\''bin/x'\'' "$@"' sh a b`: the shell expands the
    /// `~` as Python's `expanduser` did, and the arguments stay untouched. nil when
    /// the name also has a `$` (expandvars, which a shell would not do alike).
    static func homeRelative(_ argv: [String]) -> [String]? {
        guard let program = argv.first, program.hasPrefix("~"), !program.contains("$") else { return nil }
        let slash = program.firstIndex(of: "/") ?? program.endIndex
        let user = program[program.index(after: program.startIndex)..<slash]
        guard user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return nil }
        // The slash after the ~ stays unquoted: it ends the part the shell expands.
        let rest = slash < program.endIndex ? String(program[program.index(after: slash)...]) : ""
        let quoted = slash < program.endIndex ? "/'" + rest.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" : ""
        return ["/bin/sh", "-c", "exec ~\(user)\(quoted) \"$@\"", "sh"] + argv.dropFirst()
    }

    /// The first word and the rest, as Python's `split(maxsplit=1)` gives them.
    static func splitFirst(_ text: String) -> (String, String) {
        let trimmed = text.trimmingWhitespace
        guard let end = trimmed.firstIndex(where: \.isWhitespace) else { return (trimmed, "") }
        return (String(trimmed[..<end]), String(trimmed[end...]).trimmingWhitespace)
    }
}

extension String {
    /// Without the whitespace at either end, as Python's `strip()` does.
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
