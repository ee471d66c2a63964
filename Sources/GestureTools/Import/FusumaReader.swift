/// Reads fusuma's config.yml: gesture sections (`swipe:`, `pinch:`, `rotate:`,
/// `hold:`, `tap:`), then finger counts, directions, phases (`begin:`,
/// `update:`, `end:`), `keypress:` combinations and executors (`command:`,
/// `sendkey:`, plugins), and documents after `---` limited by `context:`.
public enum FusumaReader {
    static let gestureSections: [String: ImportedBinding.Kind] = [
        "swipe": .swipe, "pinch": .pinch, "rotate": .rotate, "hold": .longPress, "tap": .tap,
    ]
    static let directions: [ImportedBinding.Kind: Set<String>] = [
        .swipe: ["left", "right", "up", "down"],
        .pinch: ["in", "out"],
        .rotate: ["clockwise", "counterclockwise"],
    ]
    static let phases: [String: ImportedBinding.Phase] = [
        "begin": .began, "update": .changed, "end": .ended, "cancelled": .cancelled,
    ]
    /// Keys of an action that tune it rather than being an action.
    static let options: Set<String> = ["threshold", "interval", "accel", "clearmodifiers", "wrap-navigation", "wrap_navigation", "oneshot"]
    /// Keys that name what a binding does (fusuma's and its plugins' executors import knows).
    static let executors: Set<String> = ["command", "sendkey", "shortcut", "workspace", "window"]
    /// Top-level sections that are not gestures.
    static let otherSections: Set<String> = ["plugin", "remap", "typing", "context"]

    /// Where a binding sits: the document's context and the keys above it.
    struct Place {
        var kind: ImportedBinding.Kind
        var fingers: Int?
        var direction: String?
        var phase: ImportedBinding.Phase?
        var modifiers: String?
        var apps: AppList?
        var unsupportedContext: String?
        var path: [String]
        var notes: [String] = []
        /// fusuma before 3.0 said in for the fingers moving apart.
        var pinchAsFusuma2 = false
    }

    /// The fusuma release whose reading of pinch in and out is followed:
    /// 3.0 (2023-03-25, commit aa46ae1, "fix(pinch_detector)!: Reverse pinch
    /// in/out") made in the fingers moving together, as gesturemap has it.
    public static let currentVersion = 3

    public static func read(_ bytes: [UInt8], version: Int = currentVersion) -> ImportResult {
        var result = ImportResult(format: .fusuma)
        var appLists = AppLists()
        let documents = YAMLReader.read(bytes)
        // fusuma's Config#validate: a file it cannot read, or whose first document
        // repeats a key (YAMLDuplicationChecker), is an InvalidFileError, and fusuma exits.
        var refusals: [Int] = []
        for duplicate in documents.duplicates {
            let key = LuaText.printable(duplicate.key)
            if duplicate.document == 0 {
                result.error(duplicate.line, "the key \"\(key)\" is given twice (first at line \(duplicate.earlier)); fusuma refuses a file whose first document repeats a key (\"Detect duplicate keys\") and runs none of it: remove one")
                refusals.append(duplicate.line)
            } else {
                result.warning(duplicate.line, "the key \"\(key)\" is given twice (first at line \(duplicate.earlier)); fusuma uses this later one, and so does import")
            }
        }
        for line in documents.keysWithNoText {
            result.error(line, "a key written as a list, a mapping or an alias: fusuma's check for repeated keys reads every key as text, fails here, and fusuma runs none of the file")
            refusals.append(line)
        }
        if let failure = documents.failure {
            result.error(failure.line, "YAML: \(failure.message); fusuma refuses the file and runs none of it, so nothing is imported live: fix the YAML here")
            refusals.append(failure.line)
        }
        for root in documents.roots {
            guard let root, !root.isNull else { continue }
            guard let pairs = root.pairs else {
                // Config#validate symbolizes each document's keys, which only a mapping has: fusuma exits.
                result.error(root.line, "a fusuma document is a mapping of gesture sections (swipe:, pinch:, rotate:, hold:, tap:), not \(describe(root)); fusuma fails on it and runs none of the file, so nothing is imported live")
                refusals.append(root.line)
                continue
            }
            var app: String?
            var unsupportedContext: String?
            if let context = pairs.first(where: { $0.key.scalar == "context" })?.value {
                (app, unsupportedContext) = readContext(context, into: &result)
            }
            var names = app.map { [$0] } ?? []
            if let context = pairs.first(where: { $0.key.scalar == "context" })?.value,
               let list = context.pairs?.first(where: { $0.key.scalar == "application" })?.value.items {
                names = list.compactMap { $0.scalar }
                // An empty list names no application: its gestures run nowhere.
                if names.isEmpty { continue }
            }
            let apps = names.isEmpty ? nil : appLists.make(names, line: root.line)
            for pair in pairs {
                guard let name = pair.key.scalar else {
                    result.warning(pair.key.line, "a section's name must be a word, not \(describe(pair.key)); fusuma ignores it")
                    continue
                }
                if let kind = gestureSections[name] {
                    var place = Place(kind: kind, apps: apps, unsupportedContext: unsupportedContext, path: [name])
                    place.pinchAsFusuma2 = version < 3
                    readGesture(pair.value, place: place, into: &result)
                } else if name == "threshold" || name == "interval" {
                    readTuning(name, pair.value, into: &result)
                } else if otherSections.contains(name) {
                    if name == "plugin" || name == "remap" || name == "typing" {
                        result.settings.append(ImportedSetting(line: pair.key.line, note: "fusuma's \(name): section configures fusuma's plugins and input, not gestures; nothing in gesturemap takes it"))
                    }
                } else {
                    result.warning(pair.key.line, "unknown section \"\(LuaText.printable(name))\"; fusuma ignores it, and so does import (sections: swipe, pinch, rotate, hold, tap, threshold, interval, plugin, context)")
                }
            }
        }
        if let first = refusals.min() {
            for i in result.bindings.indices {
                result.bindings[i].action = .unsupported("fusuma refuses this file (line \(first)) and runs none of it")
            }
        }
        // Phases of one gesture are one rule, so only a whole live rule replaces another.
        for i in result.bindings.indices {
            result.bindings[i].keepsSlot = result.bindings[i].isLive && result.bindings[i].handlerPhase == nil
        }
        if result.bindings.contains(where: { $0.kind == .pinch }) {
            result.headerNotes.append(version < 3
                ? "Pinches are read as fusuma 2 read them (--fusuma-version 2): its pinch in was the fingers moving apart, gesturemap's pinch out."
                : "Pinches are read as fusuma 3 and later read them: pinch in is the fingers moving together, as in gesturemap. For a file written for fusuma 2, whose pinch in was the fingers moving apart, import it with --fusuma-version 2.")
        }
        return result
    }

    /// `context: { application: NAME }` gives the application; any other
    /// context (thumbsense, a keyboard layout) is one gesturemap cannot tell.
    static func readContext(_ node: YAMLNode, into result: inout ImportResult) -> (String?, String?) {
        guard let pairs = node.pairs else {
            result.warning(node.line, "context: should be a mapping such as { application: Firefox }; its rules are imported without it")
            return (nil, nil)
        }
        var app: String?
        var others: [String] = []
        for pair in pairs {
            let key = pair.key.scalar ?? "?"
            if key == "application" {
                app = pair.value.scalar?.trimmed(of: " \t\n")
            } else {
                others.append("\(key): \(pair.value.scalar ?? "...")")
            }
        }
        let unsupported = others.isEmpty ? nil : "fusuma's context \(others.joined(separator: ", ")) has no gesturemap equivalent (gesturemap limits rules by application, held keys and mode)"
        return (app, unsupported)
    }

    static func readTuning(_ name: String, _ node: YAMLNode, into result: inout ImportResult) {
        guard let pairs = node.pairs else {
            result.warning(node.line, "\(name): should map gestures to numbers, as in \(name): { swipe: 1 }; ignored")
            return
        }
        for pair in pairs {
            let gesture = pair.key.scalar ?? "?"
            guard let value = pair.value.number else {
                result.warning(pair.value.line, "\(name) \(LuaText.printable(gesture)) is not a number; fusuma ignores it, and so does import")
                continue
            }
            result.settings.append(ImportedSetting(line: pair.key.line, note: tuningNote(name, gesture: gesture, value: value)))
        }
    }

    static func tuningNote(_ name: String, gesture: String, value: Double) -> String {
        let number = LuaText.number(value)
        if name == "threshold" {
            return "fusuma threshold \(gesture) \(number): a multiple of fusuma's own base distance in libinput's units; gesturemap's thresholds are millimetres (swipe_min_distance, pinch_min_scale, rotate_min_angle, long_press_duration in docs/defaults.md), so no config key carries it"
        }
        return "fusuma interval \(gesture) \(number): a multiple of fusuma's base time between repeats within one gesture; gesturemap runs a rule once per gesture, so no config key carries it"
    }

    static func readGesture(_ node: YAMLNode, place: Place, into result: inout ImportResult) {
        if node.isNull { return }
        guard let pairs = node.pairs else {
            result.warning(node.line, "\(place.path.joined(separator: " ")): should hold finger counts, as in \(place.path[0]): { 3: { left: { command: ... } } }; ignored")
            return
        }
        let directionWords = directions[place.kind] ?? []
        var rest: [YAMLPair] = []
        for pair in pairs {
            var here = place
            if let fingers = pair.key.integer {
                here.fingers = fingers
                here.path.append(String(fingers))
                readFingers(pair.value, place: here, into: &result)
            } else if let word = pair.key.scalar, directionWords.contains(word) {
                // A section without a finger count serves every count that has none of its own.
                here.direction = word
                here.path.append(word)
                readActions(pair.value, place: here, into: &result)
            } else if pair.value.pairs != nil && !(phases.keys.contains(pair.key.scalar ?? "") || pair.key.scalar == "keypress") {
                // A mapping under a name fusuma never matches, such as `drag:`, holds anchors for aliases elsewhere.
                continue
            } else {
                rest.append(pair)
            }
        }
        if !rest.isEmpty {
            readActionPairs(rest, line: node.line, place: place, into: &result)
        }
    }

    static func readFingers(_ node: YAMLNode, place: Place, into result: inout ImportResult) {
        if node.isNull { return }
        guard let pairs = node.pairs else {
            result.warning(node.line, "\(place.path.joined(separator: " ")): should hold directions or actions, not \(describe(node)); ignored")
            return
        }
        let directionWords = directions[place.kind] ?? []
        var rest: [YAMLPair] = []
        for pair in pairs {
            if let word = pair.key.scalar, directionWords.contains(word) {
                var here = place
                here.direction = word
                here.path.append(word)
                readActions(pair.value, place: here, into: &result)
            } else {
                rest.append(pair)
            }
        }
        if !rest.isEmpty {
            readActionPairs(rest, line: node.line, place: place, into: &result)
        }
    }

    static func readActions(_ node: YAMLNode, place: Place, into result: inout ImportResult) {
        if node.isNull { return }
        guard let pairs = node.pairs else {
            result.warning(node.line, "\(place.path.joined(separator: " ")): should hold an action such as command: or sendkey:, not \(describe(node)); ignored")
            return
        }
        readActionPairs(pairs, line: node.line, place: place, into: &result)
    }

    /// The keys of one action mapping: phases and keypress nest; executors are bindings.
    static func readActionPairs(_ pairs: [YAMLPair], line: Int, place: Place, into result: inout ImportResult) {
        var here = place
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "threshold", "interval":
                if let n = pair.value.number {
                    let base = key == "interval" ? "time between repeats" : place.kind == .longPress ? "hold time" : "distance"
                    here.notes.append("fusuma \(key) \(LuaText.number(n)) for this gesture: a multiple of fusuma's base \(base), which gesturemap has no per-rule key for")
                }
            case "accel":
                here.notes.append("fusuma's accel: multiplied $move_x and $move_y; gesturemap gives the command no such variables (exec's environment has GESTURE_DX and GESTURE_DY)")
            case "clearmodifiers":
                if pair.value.isTrue { here.notes.append("fusuma's clearmodifiers: released the held modifiers first; key() presses only the keys named") }
            default:
                break
            }
        }
        for pair in pairs {
            guard let key = pair.key.scalar else {
                result.warning(pair.key.line, "\(place.path.joined(separator: " ")): a key must be a word, not \(describe(pair.key)); fusuma ignores it")
                continue
            }
            if options.contains(key) { continue }
            if let phase = phases[key] {
                guard place.phase == nil else {
                    result.warning(pair.key.line, "\(place.path.joined(separator: " ")): \(key): inside another phase; fusuma never runs it")
                    continue
                }
                var inner = here
                inner.phase = phase
                inner.path.append(key)
                readActions(pair.value, place: inner, into: &result)
                continue
            }
            if key == "keypress" {
                readKeypress(pair.value, place: here, into: &result)
                continue
            }
            if !executors.contains(key), let n = pair.value.number, !pair.value.isRubyString {
                result.warning(pair.key.line, "\(place.path.joined(separator: " ")): \(LuaText.printable(key)): \(LuaText.number(n)) is no action or option fusuma knows; it ignores it, and so does import")
                continue
            }
            if pair.value.isNull {
                continue
            }
            var inner = here
            inner.path.append(key)
            result.add(binding(executor: key, value: pair.value, place: inner))
        }
    }

    static func readKeypress(_ node: YAMLNode, place: Place, into result: inout ImportResult) {
        guard let pairs = node.pairs else {
            if !node.isNull { result.warning(node.line, "keypress: should map held keys to actions, as in keypress: { LEFTSHIFT: { command: ... } }; ignored") }
            return
        }
        for pair in pairs {
            let combo = pair.key.scalar ?? ""
            var inner = place
            inner.path += ["keypress", combo]
            switch modifiers(of: combo) {
            case .success(let words):
                inner.modifiers = words
                inner.notes.append("fusuma's keypress \(combo) asks for those very keys (left or right) pressed in that order; gesturemap's modifiers take either side, in any order")
            case .failure(let reason):
                inner.unsupportedContext = reason.reason
            }
            readActions(pair.value, place: inner, into: &result)
        }
    }

    /// fusuma-plugin-keypress's combination as gesturemap's modifier words.
    static func modifiers(of combo: String) -> Result<String, KeypressProblem> {
        var words: [String] = []
        for part in combo.split(separator: "+").map({ String($0).uppercased() }) {
            let word: String
            switch part {
            case "LEFTCTRL", "RIGHTCTRL": word = "ctrl"
            case "LEFTSHIFT", "RIGHTSHIFT": word = "shift"
            case "LEFTALT", "RIGHTALT": word = "alt"
            case "LEFTMETA", "RIGHTMETA": word = "super"
            case "CTRL", "SHIFT", "ALT", "META", "SUPER":
                return .failure(KeypressProblem(reason: "fusuma-plugin-keypress reports LEFT\(part) or RIGHT\(part), never \(part), so fusuma never runs this binding"))
            default:
                return .failure(KeypressProblem(reason: "keypress \(combo): gesturemap limits rules by held modifier keys (ctrl, shift, alt, super) only, not by \(part)"))
            }
            if !words.contains(word) { words.append(word) }
        }
        // One spelling per set of keys, so that rules for the same keys are seen to be the same.
        let order = ["ctrl", "shift", "alt", "super"]
        words.sort { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
        guard !words.isEmpty else { return .failure(KeypressProblem(reason: "keypress: names no key")) }
        return .success(words.joined(separator: "+"))
    }

    struct KeypressProblem: Error {
        var reason: String
    }

    static func binding(executor: String, value: YAMLNode, place: Place) -> ImportedBinding {
        var kind = place.kind
        var phase = place.phase
        var direction = place.direction
        var onlyWhen: String?
        var notes = place.notes
        // Before 3.0, fusuma's PinchDetector said in when the fingers' spread grew
        // (scale > 1), where gesturemap, Touchégg, libinput-gestures and fusuma 3 say out.
        if kind == .pinch, place.pinchAsFusuma2, let word = direction {
            direction = word == "in" ? "out" : "in"
            notes.append("fusuma 2's pinch \(word) is the fingers moving \(word == "in" ? "apart" : "together"): gesturemap's pinch \(direction ?? "")")
        }
        // A swipe followed phase by phase is a pan in gesturemap. fusuma runs a
        // finger count's phases and its directions' phases in one gesture, so they
        // are one rule for every direction, each action kept to its own.
        if phase != nil {
            switch kind {
            case .swipe, .pinch, .rotate:
                if kind == .swipe { kind = .pan }
                onlyWhen = direction
                direction = nil
            case .tap:
                notes.append("a tap is one moment in gesturemap: the \(phase.map(\.rawValue) ?? "") phase is when it is recognized")
                phase = nil
            case .longPress:
                if phase == .began { phase = nil }
            case .pan, .other:
                break
            }
        }
        var action = action(executor: executor, value: value)
        if let reason = place.unsupportedContext {
            action = .unsupported(reason)
        } else if phase == nil, direction == nil, [.swipe, .pinch, .rotate].contains(kind) {
            // fusuma looks a swipe, pinch or rotation up with its direction, so an action without one is never found.
            action = .unsupported("\(place.kind.rawValue) with no direction: fusuma looks these gestures up by their direction, so it never runs this")
        }
        if executor == "command", let text = value.scalar, text.contains("$move_") || text.contains("${move_") {
            notes.append("fusuma gave the command $move_x and $move_y; gesturemap does not (its exec's environment has GESTURE_DX and GESTURE_DY)")
        }
        var binding = ImportedBinding(line: value.line, kind: kind, fingers: place.fingers, direction: direction, phase: phase,
                                      apps: place.apps, modifiers: place.modifiers, action: action, notes: notes,
                                      original: place.path.joined(separator: ": ") + ": " + summary(value))
        binding.onlyWhen = onlyWhen
        binding.sourceCount = max(1, place.apps?.names.count ?? 1)
        return binding
    }

    static func action(executor: String, value: YAMLNode) -> ImportedAction {
        switch executor {
        case "command":
            guard let text = value.scalar else { return .unsupported("command: should be a command line, not \(describe(value))") }
            if let problem = notText(value, "command") { return .unsupported(problem) }
            // fusuma hands the string to Ruby's spawn: a shell when it has shell characters, else the words split; sh -c does both alike.
            return CommandAction.shellCommand(text)
        case "sendkey":
            let combos = value.items?.compactMap(\.scalar) ?? value.scalar.map { [$0] } ?? []
            guard !combos.isEmpty else { return .unsupported("sendkey: names no key") }
            for node in value.items ?? [value] {
                if let problem = notText(node, "sendkey") { return .unsupported(problem) }
            }
            var keys: [String] = []
            for combo in combos {
                switch KeyTranslation.sendkeyCombo(combo) {
                case .success(let k): keys.append(k)
                case .failure(let error): return .unsupported("sendkey \(combo): \(error.message)")
                }
            }
            return .keys(keys)
        case "shortcut":
            return .unsupported("shortcut: was removed in fusuma 1.0 (it ran xdotool key \(value.scalar ?? "...")); current fusuma ignores it. To keep it, write key(\"\(value.scalar ?? "")\")")
        case "workspace", "window":
            return .unsupported("fusuma-plugin-wmctrl's \(executor): \(summary(value)) is a window-manager action gesturemap has no equivalent for; run wmctrl or your desktop's command with exec")
        default:
            return .unsupported("fusuma executor \"\(executor):\" comes from a plugin gesturemap has no equivalent for")
        }
    }

    /// Why fusuma would not take the value as the text it reads: Psych resolves
    /// tags and types plain scalars, so `!!binary` is the decoded bytes and
    /// `123` a number.
    static func notText(_ node: YAMLNode, _ key: String) -> String? {
        guard !node.isRubyString, let text = node.scalar else { return nil }
        let shown = LuaText.printable(text)
        switch node.tag {
        case "tag:yaml.org,2002:binary"?:
            return "\(key): !!binary \(shown): fusuma runs the bytes it decodes to, not this text; decode it with base64 -d and write the \(key == "command" ? "command" : "keys") as text"
        case let tag?:
            return "\(key): has the tag \(LuaText.printable(tag)), so fusuma reads it as no text; write it without the tag"
        case nil:
            return "\(key): \(shown): fusuma's YAML reads this as a number, a boolean, a date or null, not as text, and runs nothing; quote it: \(key): '\(shown)'"
        }
    }

    static func summary(_ node: YAMLNode) -> String {
        if let s = node.scalar { return LuaText.printable(s) }
        if let items = node.items { return "[" + items.map(summary).joined(separator: ", ") + "]" }
        if let pairs = node.pairs { return "{ " + pairs.map { "\($0.key.scalar ?? "?"): \(summary($0.value))" }.joined(separator: ", ") + " }" }
        return "..."
    }

    static func describe(_ node: YAMLNode) -> String {
        switch node.value {
        case .scalar(let s, _): return "the value \"\(LuaText.printable(s))\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
