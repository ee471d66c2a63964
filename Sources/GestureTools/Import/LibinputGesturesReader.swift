import GestureScript

/// Reads libinput-gestures.conf as libinput-gestures 2.80 reads it
/// (bulletmark/libinput-gestures, `libinput-gestures`: get_conf,
/// get_conf_line, conf_gesture, GESTURE.add, COMMAND): Python text mode
/// (universal newlines, strict UTF-8), `strip()` and `split()` with Python's
/// white space, the command split by `shlex.split`. Any line it refuses
/// makes it exit, so then it runs nothing of the file, and nothing is imported live.
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
        // Python decodes the file strictly: one invalid byte and it reads nothing.
        if let line = TextLines.linesWithInvalidUTF8(bytes).first {
            result.error(line, "bytes that are not UTF-8: libinput-gestures reads the file as UTF-8 text and stops with an error, so it runs nothing of it: save the file as UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var delayedHold: Int?
        for (index, raw) in PythonText.lines(text).enumerated() {
            if result.isFull { break }
            let number = index + 1
            let line = PythonText.strip(String(Substring(raw)))
            guard let first = line.unicodeScalars.first, first != "#" else { continue }
            readLine(line, number: number, into: &result, delayedHold: &delayedHold)
        }
        if let delayedHold { commentOutHolds(besides: delayedHold, in: &result) }
        if let refusedAt = result.diagnostics.filter({ $0.severity == .error }).compactMap(\.line).min() {
            for i in result.bindings.indices {
                result.bindings[i].action = .unsupported("libinput-gestures stops at line \(refusedAt) with an error and runs nothing of the file")
            }
        }
        result.unsupportedBindingsKeepBroaderOnesOut = true
        return result
    }

    static func readLine(_ line: String, number: Int, into result: inout ImportResult, delayedHold: inout Int?) {
        let words = PythonText.split(line, maxSplit: 1)
        var key = Substring(words.first ?? "")
        while key.hasSuffix(":") { key = key.dropLast() }
        let rest = words.count > 1 ? words[1] : ""
        switch key {
        case "gesture":
            readGesture(rest, line: number, into: &result, delayedHold: &delayedHold)
        case "device":
            // conf_device: an empty name is "No device specified", and the tool stops.
            guard !rest.isEmpty else {
                result.error(number, "device needs the name of a device, as libinput list-devices gives it; libinput-gestures stops at this line")
                return
            }
            result.settings.append(ImportedSetting(line: number, note: "device \(LuaText.printable(rest)): libinput-gestures read only this device; give it to gesturemap run as its input (gesturemap devices lists them), or limit a rule with { device = \"...\" }"))
        case "swipe_threshold":
            guard let n = PythonText.int(rest), n >= 0 else {
                result.error(number, "swipe_threshold takes a whole number of libinput's units, 0 or more, not \"\(LuaText.printable(rest))\"; libinput-gestures stops at this line")
                return
            }
            result.settings.append(ImportedSetting(line: number, note: "swipe_threshold \(LuaText.number(n)): the least swipe in libinput's unaccelerated units, not millimetres; no config key carries it (gesturemap's is swipe_min_distance, 10 mm by default)"))
        case "timeout":
            guard let t = PythonText.float(rest), t >= 0 else {
                result.error(number, "timeout takes seconds, 0 or more, not \"\(LuaText.printable(rest))\"; libinput-gestures stops at this line")
                return
            }
            if t >= 0.05 && t <= 5 {
                result.settings.append(ImportedSetting(line: number, key: "swipe_max_duration", value: t, note: "timeout \(LuaText.number(t)): a swipe or pinch longer than this did nothing; gesturemap's swipe_max_duration is the nearest key (it counts from the stroke's start and applies to swipes only)"))
            } else if t == 0 {
                result.settings.append(ImportedSetting(line: number, note: "timeout 0: libinput-gestures had no time limit; gesturemap's swipe_max_duration (default 2 s) is at most 5 s, so no config key carries it"))
            } else {
                result.settings.append(ImportedSetting(line: number, note: "timeout \(LuaText.printable(rest)): outside swipe_max_duration's range (0.05 to 5 s), so no config key carries it"))
            }
        default:
            result.error(number, "unknown setting \"\(LuaText.printable(String(key)))\"; libinput-gestures knows gesture, device, swipe_threshold and timeout, and stops at this line")
        }
    }

    static func readGesture(_ fieldsText: String, line: Int, into result: inout ImportResult, delayedHold: inout Int?) {
        let fields = PythonText.split(fieldsText, maxSplit: 2)
        guard fields.count == 3 else {
            result.error(line, "a gesture line needs a type, a motion and a command, as in: gesture swipe left 3 xdotool key alt+Right")
            return
        }
        let type = fields[0], motionWord = fields[1]
        var command = fields[2]
        // handlers.get(gesture.upper()): Python's upper case, so ſwipe is SWIPE.
        let upper = type.uppercased()
        let typeName = upper.lowercased()
        guard ["SWIPE", "PINCH", "HOLD", "DRAG"].contains(upper) else {
            result.error(line, "unknown gesture \"\(LuaText.printable(type))\"; libinput-gestures knows swipe, pinch, hold and drag")
            return
        }
        var motion = motionWord.lowercased()
        var holdDelay: Double?
        if typeName == "hold", let plus = motion.firstIndex(of: "+") {
            let delayText = String(motion[motion.index(after: plus)...])
            guard let delay = PythonText.float(delayText) else {
                result.error(line, "the hold delay \"\(LuaText.printable(delayText))\" must be a number of seconds, as in hold on+1.5")
                return
            }
            holdDelay = delay
            motion = String(motion[..<plus])
        }
        // A one-character word Python calls a digit is the finger count, whatever its script.
        var fingersWord: String?
        let afterFingers = PythonText.split(command, maxSplit: 1)
        if let word = afterFingers.first, word.unicodeScalars.count == 1, let digit = word.unicodeScalars.first, PythonText.isDigit(digit) {
            fingersWord = word
            command = afterFingers.count > 1 ? afterFingers[1] : ""
        }
        let fingers: Int? = fingersWord.flatMap { $0.unicodeScalars.first?.properties.numericValue.map { Int($0) } }
        let original = LuaText.printable("gesture \(type) \(motionWord)\(fingersWord.map { " \($0)" } ?? "") \(command)")
        guard !command.isEmpty else {
            result.error(line, "no command after the gesture; libinput-gestures stops at this line")
            return
        }
        let argv: [String]
        switch ShellWords.shlexSplit(command) {
        case .success(let words): argv = words
        case .failure(let error):
            result.error(line, "the command cannot be split into words: \(error.message)")
            return
        }
        if argv.first == "_internal", let problem = LibinputInternalCommand.problem(Array(argv.dropFirst())) {
            result.error(line, "_internal: \(problem); libinput-gestures stops at this line")
            return
        }
        var binding: ImportedBinding
        if typeName == "drag" {
            guard motion == "drag" else {
                result.error(line, "gesture drag takes the motion drag, not \"\(LuaText.printable(motionWord))\"")
                return
            }
            binding = ImportedBinding(line: line, kind: .pan, fingers: fingers, action: .unsupported("libinput-gestures' drag holds a mouse button down while the fingers move; gesturemap has no rule that drags the pointer for you (pointer.press and pointer.move can, in Lua)"), original: original)
        } else {
            guard let (kind, direction) = motions["\(typeName) \(motion)"] else {
                let valid = motions.keys.filter { $0.hasPrefix(typeName + " ") }.map { String($0.dropFirst(typeName.count + 1)) }.sorted()
                result.error(line, "gesture \(typeName) does not take the motion \"\(LuaText.printable(motionWord))\"; it takes \(valid.joined(separator: ", "))")
                return
            }
            var notes: [String] = []
            if fingersWord == nil {
                notes.append("no finger count: any count that has no line of its own, as in libinput-gestures")
            }
            // libinput-gestures acts on a hold when the fingers lift (HOLD.end): a long press's ended phase.
            let phase: ImportedBinding.Phase? = kind == .longPress ? .ended : nil
            binding = ImportedBinding(line: line, kind: kind, fingers: fingers, direction: direction, phase: phase,
                                      action: action(argv, notes: &notes), notes: notes, original: original)
        }
        if let word = fingersWord, !(word.count == 1 && "123456789".contains(word)) {
            // Keyed by that very text, which no gesture's count ever equals.
            binding.action = .unsupported("the finger count \"\(LuaText.printable(word))\" is a digit to Python, but libinput reports counts as ASCII digits, so libinput-gestures never runs this")
            binding.keepsSlot = false
        }
        if let delay = holdDelay, delay != 0 {
            binding.action = .unsupported("hold on+\(LuaText.number(delay)): libinput-gestures ran it when the fingers stayed \(LuaText.number(delay)) s longer; gesturemap's long press has one duration for every rule (long_press_duration), so it cannot wait longer for this one")
            binding.keepsSlot = false
            delayedHold = delayedHold ?? line
        }
        result.add(binding)
    }

    /// Holds chosen by how long the fingers stay cannot be told apart by gesturemap's one long press.
    static func commentOutHolds(besides delayed: Int, in result: inout ImportResult) {
        for i in result.bindings.indices where result.bindings[i].kind == .longPress && result.bindings[i].isLive {
            result.bindings[i].action = .unsupported("libinput-gestures runs the hold of line \(delayed) instead when the fingers stay longer; gesturemap's long press has one duration, so it cannot tell the two apart")
        }
    }

    static func action(_ argv: [String], notes: inout [String]) -> ImportedAction {
        guard let program = argv.first else { return .unsupported("the command has no words") }
        if program == "_internal" {
            return .unsupported("libinput-gestures' _internal \(argv.dropFirst().joined(separator: " ")) switches workspaces through wmctrl, a window-manager action gesturemap has no equivalent for; exec wmctrl or your desktop's command instead")
        }
        if program == "_drag" {
            return .unsupported("libinput-gestures' _drag holds a mouse button down while the fingers move; gesturemap has no rule that drags the pointer for you (pointer.press and pointer.move can, in Lua)")
        }
        if let keys = KeyTranslation.xdotoolKeys(argv) { return .keys(keys) }
        guard argv.reduce(0, { $0 + $1.utf8.count + 1 }) <= ScriptRuntime.maxExecBytes / 2 else {
            return .unsupported("the command comes to more than the \(ScriptRuntime.maxExecBytes) bytes exec() passes on")
        }
        if argv.contains(where: { $0.hasPrefix("#") }) {
            notes.append("the # and what follows are not a comment here: libinput-gestures passed them to the program as arguments, and so does this rule")
        }
        // COMMAND.__init__: os.path.expandvars(os.path.expanduser(argv[0])).
        if expandsVariables(program) {
            return .unsupported("libinput-gestures expanded the $VARIABLE in the program's name (\(LuaText.printable(program))) itself, with Python's os.path.expandvars; exec does not: write the path out")
        }
        if program.hasPrefix("~") {
            guard let expanded = homeRelative(argv) else {
                return .unsupported("libinput-gestures expanded the ~ in the program's name (\(LuaText.printable(program))) itself; gesturemap cannot do the same for that name: write the path out")
            }
            notes.append("libinput-gestures expanded the ~ in the program's name itself; sh -c does it here, and passes the arguments on as they are")
            return .exec(expanded)
        }
        return .exec(argv)
    }

    /// Whether Python's `os.path.expandvars` finds a `$NAME` or `${NAME}` in it (posixpath: `\$(\w+|\{[^}]*\})`, ASCII).
    static func expandsVariables(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "$") && i + 1 < bytes.count {
            let next = bytes[i + 1]
            let word = (next >= 0x30 && next <= 0x39) || (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) || next == UInt8(ascii: "_")
            if word || (next == UInt8(ascii: "{") && bytes[(i + 2)...].contains(UInt8(ascii: "}"))) { return true }
        }
        return false
    }

    /// `~/bin/x a b` as `sh -c 'exec ~/'\''bin/x'\'' "$@"' sh a b`: the shell expands the
    /// `~` as Python's `expanduser` did, and the arguments stay untouched. nil when
    /// the user's name has characters a shell would read otherwise.
    static func homeRelative(_ argv: [String]) -> [String]? {
        guard let program = argv.first, program.hasPrefix("~") else { return nil }
        let slash = program.firstIndex(of: "/") ?? program.endIndex
        let user = program[program.index(after: program.startIndex)..<slash]
        guard user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return nil }
        // The slash after the ~ stays unquoted: it ends the part the shell expands.
        let rest = slash < program.endIndex ? String(program[program.index(after: slash)...]) : ""
        let quoted = slash < program.endIndex ? "/'" + rest.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" : ""
        return ["/bin/sh", "-c", "exec ~\(user)\(quoted) \"$@\"", "sh"] + argv.dropFirst()
    }
}

extension String {
    /// Without the whitespace at either end.
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
