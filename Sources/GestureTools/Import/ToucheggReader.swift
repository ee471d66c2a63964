/// Reads Touchégg's touchegg.conf as Touchégg 2.x loads it
/// (src/config/xml-config-loader.cpp): with pugixml, the root's first
/// `<settings>`, then each `<application name="A,B">`'s `<gesture>`s, each
/// filed under every name in the list. Bindings Touchégg never runs (1.x's
/// forms among them) are written commented out, and so is everything of a
/// file pugixml refuses, since Touchégg then runs none of it.
public enum ToucheggReader {
    public static func read(_ bytes: [UInt8], name: String) -> ImportResult {
        var reader = Reading(lines: TextLines(bytes))
        reader.warnAboutInvalidUTF8(bytes)
        guard let document = PugiDocument(bytes) else {
            reader.result.error(nil, "out of memory while reading the XML")
            return reader.result
        }
        if !document.parsed {
            let line = reader.lines.line(ofOffset: document.problemOffset)
            reader.result.error(line, "XML: \(document.problem); Touchégg refuses the whole file and runs none of it, so nothing is imported live: fix the XML here")
            reader.refusal = "Touchégg refuses this file (line \(line): \(document.problem)) and runs none of it"
        }
        let root = document.documentElement
        guard !root.isNull else {
            if reader.refusal == nil { reader.result.error(1, "no XML element; a Touchégg file is <touchégg> ... </touchégg>") }
            return reader.result
        }
        let roots = document.topLevel.filter { $0.kind == .element }
        // Of a refused file, only the error is news; its bindings are written commented out.
        reader.quiet = reader.refusal != nil
        if roots.count > 1 {
            reader.warning(reader.line(roots[1]), "a second root element begins here; Touchégg reads only the first <touchégg>, and so does import")
        }
        reader.readSettings(root)
        for section in root.children where section.kind == .element {
            if reader.result.isFull { break }
            switch section.name.shown {
            case "settings":
                if section.offset != root.child("settings").offset {
                    reader.warning(reader.line(section), "a second <settings>; Touchégg reads only the first, and so does import")
                }
            case "application":
                reader.readApplication(section)
            default:
                reader.warning(reader.line(section), "<\(LuaText.printable(section.name.shown))> is neither <settings> nor <application>; Touchégg ignores it, and so does import")
            }
        }
        reader.result.unsupportedBindingsKeepBroaderOnesOut = true
        return reader.result
    }

    struct Reading {
        var result = ImportResult(format: .touchegg)
        let lines: TextLines
        var appLists = AppLists()
        /// Why no binding runs at all: the file is refused, or every action throws.
        var refusal: String?
        /// No warnings about the file's structure: pugixml refused it.
        var quiet = false

        init(lines: TextLines) { self.lines = lines }

        func line(_ node: PugiNode) -> Int { node.offset.map(lines.line(ofOffset:)) ?? 1 }

        mutating func warning(_ line: Int, _ message: String) {
            if !quiet { result.warning(line, message) }
        }

        mutating func warnAboutInvalidUTF8(_ bytes: [UInt8]) {
            let invalid = TextLines.linesWithInvalidUTF8(bytes)
            for line in invalid.prefix(10) {
                result.warning(line, "bytes that are not UTF-8; Touchégg passes them on as they are, and a binding that would run them is written commented out")
            }
            if invalid.count > 10 {
                result.warning(invalid[10], "and \(invalid.count - 10) more lines with bytes that are not UTF-8")
            }
        }

        /// The first `<settings>`' `<property>`s, the last of a name winning (Config::saveGlobalSetting).
        mutating func readSettings(_ root: PugiNode) {
            var animationDelay: (value: PugiText, line: Int)?
            for property in root.child("settings").children(named: "property") {
                let key = property.attribute("name").shown
                let value = property.childValue
                let line = line(property)
                if key == "animation_delay" { animationDelay = (value, line) }
                let note: String
                if key == "composed_gestures_time" {
                    note = "composed_gestures_time \(LuaText.printable(value.shown)): Touchégg 1.x's time between the taps of a double tap; 2.x has no double tap and ignores it (gesturemap's is tap_interval, in seconds)"
                } else {
                    note = "\(LuaText.printable(key)) \(LuaText.printable(value.shown)): Touchégg's own setting (animations, colours, thresholds in percent of the gesture); no config key carries it"
                }
                result.settings.append(ImportedSetting(line: line, note: note))
            }
            // AnimatedAction's constructor reads it with std::stoull for every action Touchégg makes.
            if let delay = animationDelay, CppNumbers.stoullThrows(delay.value.bytes), refusal == nil {
                result.error(delay.line, "animation_delay \"\(LuaText.printable(delay.value.shown))\" is no number: Touchégg's std::stoull throws on it as it makes each action, so no gesture does anything; nothing is imported live: write a number of milliseconds, such as 150")
                refusal = "Touchégg's animation_delay at line \(delay.line) is no number, so it carries out no action"
            }
        }

        /// `split(name, ',')`, each trimmed, as the loader reads the list.
        static func applicationNames(_ attribute: PugiText) -> [PugiText] {
            ToucheggAction.split(attribute, at: UInt8(ascii: ",")).map { PugiText(bytes: trimmedCSpace($0.bytes)) }
        }

        /// Without the C locale's white space at either end (utils/string.cpp trims with \s).
        static func trimmedCSpace(_ bytes: [UInt8]) -> [UInt8] {
            let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
            return Array(bytes.drop { space.contains($0) }.reversed().drop { space.contains($0) }.reversed())
        }

        mutating func readApplication(_ application: PugiNode) {
            let names = Self.applicationNames(application.attribute("name"))
            let line = line(application)
            if names.isEmpty {
                warning(line, "this <application> names no application (name=\"\(LuaText.printable(application.attribute("name").shown))\"), so Touchégg files its gestures under none and never runs them")
            }
            // Touchégg looks the window's class up lower-cased, then "All" (lower-cased too).
            let everyApp = names.filter { AppPatternText.lowercasedASCII($0.shown) == "all" && $0.string != nil }.count
            let named = names.filter { AppPatternText.lowercasedASCII($0.shown) != "all" || $0.string == nil }
            var lists: [String: (AppList?, [String])] = [:]
            for gesture in application.children where gesture.kind == .element {
                if result.isFull { break }
                guard gesture.name.shown == "gesture" else {
                    warning(self.line(gesture), "<\(LuaText.printable(gesture.name.shown))> outside a <gesture>; Touchégg ignores it, and so does import")
                    continue
                }
                readGesture(gesture, everyApp: everyApp, named: named, lists: &lists, listLine: line)
            }
        }

        /// An application's names as gesturemap can match them, once for all its gestures, and those it cannot.
        mutating func appList(named: [PugiText], everyApp: Int, suffix: String, line: Int) -> (AppList?, [String]) {
            var names = suffix.isEmpty ? named : named + Array(repeating: PugiText(bytes: Array("all".utf8)), count: everyApp)
            if !suffix.isEmpty { names = names.map { PugiText(bytes: Array((AppPatternText.lowercasedASCII($0.shown) + suffix).utf8)) } }
            var usable: [String] = []
            var dropped: [String] = []
            for name in names {
                if let text = name.string, !text.isEmpty, text.utf8.count <= 255,
                   suffix.isEmpty || AppPatternText.lowercasedASCII(text) == text {
                    usable.append(text)
                } else {
                    dropped.append(name.shown)
                }
            }
            return (usable.isEmpty ? nil : appLists.make(usable, line: line), dropped)
        }

        mutating func readGesture(_ node: PugiNode, everyApp: Int, named: [PugiText], lists: inout [String: (AppList?, [String])], listLine: Int) {
            let line = line(node)
            let type = node.attribute("type"), fingers = node.attribute("fingers"), direction = node.attribute("direction")
            let gesture = ToucheggGesture(type: type, fingers: fingers, direction: direction)
            let actions = node.children(named: "action")
            if actions.count > 1 {
                warning(self.line(actions[1]), "a second <action> in one gesture; Touchégg runs the first, and so does import")
            }
            let action = ToucheggAction(node.child("action"))
            var notes = gesture.notes
            var imported = action.imported(notes: &notes)
            if let never = gesture.neverRuns {
                imported = .unsupported(never)
            } else if let refusal {
                imported = .unsupported(refusal)
            }
            var original = "<gesture type=\"\(LuaText.printable(type.shown))\" fingers=\"\(LuaText.printable(fingers.shown))\""
            if node.hasAttribute("direction") { original += " direction=\"\(LuaText.printable(direction.shown))\"" }
            original += "> " + (action.type.isEmpty ? "with no action" : LuaText.printable(action.type.shown))
            var binding = ImportedBinding(line: line, kind: gesture.kind, fingers: gesture.fingers, direction: gesture.direction,
                                          taps: gesture.taps, action: imported, notes: notes, original: original)
            // Names with `_` in the fingers file the gesture under other names: none is every application then.
            let suffix = gesture.appSuffix
            if everyApp > 0 && suffix.isEmpty {
                binding.sourceCount = everyApp
                result.add(binding)
            }
            if lists[suffix] == nil {
                lists[suffix] = appList(named: named, everyApp: everyApp, suffix: suffix, line: listLine)
            }
            guard let (list, dropped) = lists[suffix] else { return }
            if let list {
                var forApps = binding
                forApps.apps = list
                forApps.sourceCount = list.sourceCount
                forApps.original += " in " + list.summary
                result.add(forApps)
            }
            if !dropped.isEmpty {
                var forNone = binding
                forNone.sourceCount = dropped.count
                forNone.keepsSlot = false
                forNone.original += " in " + AppLists.summary(dropped)
                if case .unsupported = binding.action {} else {
                    forNone.action = .unsupported("no application gesturemap can tell is named so (an empty name matches windows with no class, and gesturemap takes ids of UTF-8 text up to 255 bytes)")
                }
                result.add(forNone)
            }
        }
    }
}
