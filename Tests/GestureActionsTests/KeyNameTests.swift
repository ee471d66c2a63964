import Foundation
@testable import GestureActions
import Testing

/// The codes a combination presses, or nil when it does not parse.
func codes(_ combo: String) -> [UInt16]? {
    guard case .success(let k) = KeyCombo.parse(combo) else { return nil }
    return k.keys.map(\.code)
}

@Suite("Key names from xdotool and X")
struct KeyNameTests {
    /// Names as xdotool and X keysyms spell them, with the kernel codes X's
    /// default keymap (xkeyboard-config evdev) gives them.
    static let xdotoolNames: [(String, [UInt16])] = [
        ("Page_Down", [109]), ("Page_Up", [104]), ("Prior", [104]), ("Next", [109]),
        ("Return", [28]), ("BackSpace", [14]), ("Escape", [1]), ("Tab", [15]), ("space", [57]),
        ("Home", [102]), ("End", [107]), ("Delete", [111]), ("Insert", [110]),
        ("Left", [105]), ("Right", [106]), ("Up", [103]), ("Down", [108]),
        ("Control_L", [29]), ("Control_R", [97]), ("Shift_L", [42]), ("Shift_R", [54]),
        ("Alt_L", [56]), ("Alt_R", [100]), ("Super_L", [125]), ("Super_R", [126]),
        ("Meta_L", [56]), ("Meta_R", [100]), ("ISO_Level3_Shift", [100]),
        ("ISO_Left_Tab", [42, 15]),
        ("Caps_Lock", [58]), ("Num_Lock", [69]), ("Scroll_Lock", [70]),
        ("Print", [99]), ("Menu", [127]), ("Linefeed", [101]),
        ("KP_Enter", [96]), ("KP_Add", [78]), ("KP_Subtract", [74]), ("KP_Multiply", [55]),
        ("KP_Divide", [98]), ("KP_Decimal", [83]), ("KP_Delete", [83]), ("KP_Equal", [117]),
        ("KP_0", [82]), ("KP_1", [79]), ("KP_5", [76]), ("KP_9", [73]),
        ("KP_Insert", [82]), ("KP_End", [79]), ("KP_Down", [80]), ("KP_Next", [81]), ("KP_Page_Down", [81]),
        ("KP_Left", [75]), ("KP_Begin", [76]), ("KP_Right", [77]),
        ("KP_Home", [71]), ("KP_Up", [72]), ("KP_Prior", [73]), ("KP_Page_Up", [73]),
        ("XF86AudioRaiseVolume", [115]), ("XF86AudioLowerVolume", [114]), ("XF86AudioMute", [113]),
        ("XF86AudioMicMute", [248]), ("XF86AudioPlay", [164]), ("XF86AudioPause", [201]),
        ("XF86AudioStop", [166]), ("XF86AudioNext", [163]), ("XF86AudioPrev", [165]),
        ("XF86MonBrightnessUp", [225]), ("XF86MonBrightnessDown", [224]),
        ("XF86KbdBrightnessUp", [230]), ("XF86KbdBrightnessDown", [229]),
        ("XF86Back", [158]), ("XF86Forward", [159]), ("XF86Reload", [173]), ("XF86Calculator", [140]),
        ("XF86PowerOff", [116]), ("XF86Sleep", [142]), ("XF86Eject", [161]), ("XF86MenuKB", [139]),
        ("minus", [12]), ("equal", [13]), ("bracketleft", [26]), ("bracketright", [27]),
        ("semicolon", [39]), ("apostrophe", [40]), ("grave", [41]), ("backslash", [43]),
        ("comma", [51]), ("period", [52]), ("slash", [53]),
        ("Hangul", [122]), ("Hangul_Hanja", [123]),
        ("F1", [59]), ("F5", [63]), ("F10", [68]), ("F11", [87]), ("F12", [88]),
        ("F13", [183]), ("F20", [190]), ("F24", [194]),
        ("0", [11]), ("1", [2]), ("9", [10]),
        ("a", [30]), ("q", [16]), ("z", [44]), ("m", [50]),
    ]

    @Test("every xdotool name types the key X gives it", arguments: xdotoolNames)
    func xdotoolName(name: String, expected: [UInt16]) {
        #expect(codes(name) == expected, "\(name)")
    }

    @Test("F1 to F24, the digits and the letters all have their kernel codes")
    func functionKeysDigitsLetters() {
        let f: [UInt16] = Array(59...68) + [87, 88] + Array(183...194)
        for (i, code) in f.enumerated() {
            #expect(codes("F\(i + 1)") == [code])
        }
        for (i, digit) in "1234567890".enumerated() {
            #expect(codes(String(digit)) == [UInt16(2 + i)])
        }
        let rows: [(String, UInt16)] = [("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)]
        for (letters, first) in rows {
            for (i, letter) in letters.enumerated() {
                #expect(codes(String(letter)) == [first + UInt16(i)])
                #expect(codes(letter.uppercased()) == [first + UInt16(i)])
            }
        }
    }

    @Test("case and _ do not matter; KEY_ asks for the kernel's own name")
    func spellings() {
        for name in ["PageDown", "pagedown", "PAGEDOWN", "Page_Down", "page_down", "PAGE_DOWN", "KEY_PAGEDOWN", "key_page_down"] {
            #expect(codes(name) == [109], "\(name)")
        }
        #expect(codes("Caps_Lock") == codes("CapsLock"))
        #expect(codes("TouchpadToggle") == [530])
        #expect(codes("touchpad_toggle") == [530])
        // The X meaning wins over the kernel's for the same word, KEY_ reaches the kernel's.
        #expect(codes("Next") == [109])
        #expect(codes("KEY_NEXT") == [407])
        #expect(codes("Menu") == [127])
        #expect(codes("KEY_MENU") == [139])
        #expect(codes("Print") == [99])
        #expect(codes("KEY_PRINT") == [210])
        #expect(codes("KEY_Control_L") == nil)
        #expect(codes("_") == nil)
        #expect(codes("KEY_") == nil)
    }

    @Test("the aliases gesturemap had keep their keys")
    func aliases() {
        let aliases: [(String, UInt16)] = [
            ("ctrl", 29), ("control", 29), ("rctrl", 97), ("alt", 56), ("ralt", 100), ("altgr", 100),
            ("shift", 42), ("rshift", 54), ("super", 125), ("meta", 125), ("win", 125), ("windows", 125),
            ("logo", 125), ("cmd", 125), ("next", 109), ("pgdn", 109), ("prior", 104), ("pgup", 104),
            ("escape", 1), ("return", 28), ("del", 111), ("ins", 110), ("bs", 14), ("spacebar", 57),
            ("caps", 58), ("printscreen", 99), ("print", 99), ("plus", 78), ("volup", 115),
            ("voldown", 114), ("play", 164), ("pause", 164),
        ]
        for (name, code) in aliases {
            #expect(codes(name) == [code], "\(name)")
            #expect(codes(name.uppercased()) == [code], "\(name)")
        }
    }

    @Test("ISO_Left_Tab is shift+Tab, and a key already held is not pressed again")
    func isoLeftTab() {
        #expect(codes("ctrl+ISO_Left_Tab") == [29, 42, 15])
        #expect(codes("shift+ISO_Left_Tab") == [42, 15])
        #expect(codes("ctrl+control+Tab") == [29, 15])
        guard case .success(let combo) = KeyCombo.parse("ISO_Left_Tab") else {
            Issue.record("ISO_Left_Tab did not parse")
            return
        }
        #expect(combo.events.map(\.code) == [42, 0, 15, 0, 15, 0, 42, 0])
    }

    // MARK: The tables

    @Test("the kernel's header and the table agree: every KEY_ it defines, by number or as another key, except codes newer than this libevdev",
          .enabled(if: FileManager.default.fileExists(atPath: "/usr/include/linux/input-event-codes.h"), "the kernel's headers (linux-libc-dev) are not installed"))
    func kernelHeader() throws {
        let header = try String(contentsOfFile: "/usr/include/linux/input-event-codes.h", encoding: .utf8)
        var byNumber: [String: UInt16] = [:]
        var asAnother: [String: String] = [:]
        for line in header.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3, words[0] == "#define", words[1].hasPrefix("KEY_") else { continue }
            let name = String(words[1]), value = String(words[2])
            if value.hasPrefix("KEY_") { asAnother[name] = value; continue }
            let code = value.hasPrefix("0x") ? UInt16(value.dropFirst(2), radix: 16) : UInt16(value)
            if let code { byNumber[name] = code }
        }
        #expect(byNumber.count > 450)
        let unnamed = Set(byNumber.values).subtracting(KernelKeys.primaryNames.keys).subtracting([0, KernelKeys.maxCode].map(UInt16.init))
        for (name, code) in byNumber where name != "KEY_RESERVED" && name != "KEY_MAX" && name != "KEY_CNT" {
            if unnamed.contains(code) { continue }
            #expect(KernelKeys.codes[name] == code, "\(name) = \(code)")
        }
        // KEY_MIN_INTERESTING marks where keys of interest start; it names no key.
        for (name, other) in asAnother where name != "KEY_MIN_INTERESTING" && byNumber[other].map({ !unnamed.contains($0) }) ?? false {
            #expect(KernelKeys.codes[name] != nil && KernelKeys.codes[name] == KernelKeys.codes[other], "\(name) = \(other)")
        }
        // Only the newest keys can be missing, and never many.
        #expect(unnamed.count < 10, "\(unnamed.sorted())")
    }

    @Test("every alias and X name names keys the kernel table has")
    func tablesResolve() {
        for (name, key) in keyAliases {
            #expect(KernelKeys.codes[key] != nil, "\(name) → \(key)")
        }
        for (name, keys) in xKeysymNames {
            #expect(!keys.isEmpty && keys.allSatisfy { KernelKeys.codes[$0] != nil }, "\(name) → \(keys)")
        }
    }

    @Test("dropping _ and case makes no two names one")
    func foldingIsUnambiguous() {
        var kernel: [String: Set<UInt16>] = [:]
        for (name, code) in KernelKeys.codes { kernel[foldedKeyName(name.dropFirst(4)), default: []].insert(code) }
        #expect(kernel.filter { $0.value.count > 1 }.isEmpty)

        var others: [String: [String]] = [:]
        for (name, key) in keyAliases { others[foldedKeyName(name), default: []].append(key) }
        for (name, keys) in xKeysymNames { others[foldedKeyName(name), default: []].append(keys.joined(separator: "+")) }
        #expect(others.filter { $0.value.count > 1 }.isEmpty)

        // A name that is the kernel's word for another key: each is a decision, said in the docs.
        let shadowing = others.filter { name, keys in kernel[name].map { $0 != Set(keys.compactMap { KernelKeys.codes[$0] }) } ?? false }
        #expect(Set(shadowing.keys) == ["next", "print", "menu", "pause", "play"])
        // An X name that folds to the kernel's name for the same key needs no entry.
        let redundant = xKeysymNames.filter { kernel[foldedKeyName($0.name)] != nil && !shadowing.keys.contains(foldedKeyName($0.name)) }
        #expect(redundant.map(\.name) == [])
    }
}

@Suite("Key combinations in the docs and examples")
struct DocumentedComboTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every combination examples/*.lua, docs/*.md and the README use, with
    /// the codes it pressed before X names were read (XF86AudioRaiseVolume,
    /// new with them, with the code X gives it).
    static let documented: [String: [UInt16]] = [
        "alt+Left": [56, 105], "alt+Right": [56, 106], "ctrl+Left": [29, 105], "ctrl+Right": [29, 106],
        "ctrl+Tab": [29, 15], "ctrl+shift+Tab": [29, 42, 15], "ctrl+alt+Right": [29, 56, 106],
        "ctrl+alt+Left": [29, 56, 105], "super": [125], "super+a": [125, 30],
        "PageDown": [109], "PageUp": [104], "End": [107], "Escape": [1], "b": [48],
        "shift+j": [42, 36], "shift+k": [42, 37], "Right": [106], "Left": [105],
        "XF86AudioRaiseVolume": [115], "l": [38], "ctrl+shift+t": [29, 42, 20], "Menu": [127], "ctrl+q": [29, 16], "ctrl+w": [29, 17],
    ]

    @Test("each still presses the same keys")
    func sameCodes() {
        for (combo, expected) in Self.documented {
            #expect(codes(combo) == expected, "\(combo)")
        }
    }

    @Test("every key(\"...\") in examples/*.lua, docs/*.md and README.md is one of them")
    func allFound() throws {
        var files = [Self.root.appendingPathComponent("README.md")]
        for folder in ["examples", "docs"] {
            let dir = Self.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".lua") || name.hasSuffix(".md") {
                files.append(dir.appendingPathComponent(name))
            }
        }
        var found: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                // key("..."), and reader.lua's next = "...", prev = "..." passed to key().
                for opener in ["key(\"", "next = \"", "prev = \""] {
                    var rest = line[...]
                    while let start = rest.range(of: opener) {
                        rest = rest[start.upperBound...]
                        guard let end = rest.firstIndex(of: "\"") else { break }
                        found.insert(String(rest[..<end]))
                        rest = rest[end...]
                    }
                }
            }
        }
        #expect(found.count >= 10)
        #expect(found.subtracting(Self.documented.keys) == [])
    }
}

@Suite("Unknown key names")
struct UnknownKeyNameTests {
    static func message(_ combo: String) -> String? {
        guard case .failure(let e) = KeyCombo.parse(combo) else { return nil }
        return e.message
    }

    static let farOff = "names are those of linux/input-event-codes.h without KEY_ (PageDown, Left, A, F5, Esc) or ctrl, alt, shift, super"

    @Test("a near miss gets the name it misses, spelled as the docs spell it")
    func suggestions() {
        #expect(Self.message("ctrl+PageDwn") == #"unknown key "PageDwn" in key("ctrl+PageDwn"); did you mean PageDown?"#)
        #expect(Self.message("Page_Dwn") == #"unknown key "Page_Dwn" in key("Page_Dwn"); did you mean PageDown?"#)
        #expect(Self.message("alt+Lft") == #"unknown key "Lft" in key("alt+Lft"); did you mean Left?"#)
        #expect(Self.message("Ecs") == #"unknown key "Ecs" in key("Ecs"); did you mean Esc?"#)
        #expect(Self.message("Escpae") == #"unknown key "Escpae" in key("Escpae"); did you mean Escape?"#)
        #expect(Self.message("shfit+Tab") == #"unknown key "shfit" in key("shfit+Tab"); did you mean shift?"#)
        #expect(Self.message("Caps_Lck") == #"unknown key "Caps_Lck" in key("Caps_Lck"); did you mean CapsLock?"#)
        #expect(Self.message("Contrl_L+c") == #"unknown key "Contrl_L" in key("Contrl_L+c"); did you mean Control_L?"#)
        #expect(Self.message("KP_Ad") == #"unknown key "KP_Ad" in key("KP_Ad"); did you mean KP_Add?"#)
        #expect(Self.message("XF86AudioRaiseVolum") == #"unknown key "XF86AudioRaiseVolum" in key("XF86AudioRaiseVolum"); did you mean XF86AudioRaiseVolume?"#)
        // Menu is X's context-menu key; the kernel's KEY_MENU is offered to KEY_ names.
        #expect(Self.message("Menuu") == #"unknown key "Menuu" in key("Menuu"); did you mean Menu?"#)
        #expect(Self.message("KEY_PAGEDWN") == #"unknown key "KEY_PAGEDWN" in key("KEY_PAGEDWN"); did you mean KEY_PAGEDOWN?"#)
    }

    @Test("a far-off name, or one as near to two keys, keeps the message that says what names exist")
    func noSuggestion() {
        #expect(Self.message("ctrl+Blorp") == #"unknown key "Blorp" in key("ctrl+Blorp"); "# + Self.farOff)
        // F25 is one letter from F2, F5, F15, F20...: no one of them is meant.
        #expect(Self.message("F25") == #"unknown key "F25" in key("F25"); "# + Self.farOff)
        #expect(Self.message("Shift_T") == #"unknown key "Shift_T" in key("Shift_T"); "# + Self.farOff)
        // One character is never changed into another key's.
        #expect(Self.message("ctrl+-") == #"unknown key "-" in key("ctrl+-"); "# + Self.farOff)
        #expect(Self.message("exclam") == #"unknown key "exclam" in key("exclam"); "# + Self.farOff)
        let long = String(repeating: "Page", count: 10) + "Dwn"
        #expect(Self.message(long) == "unknown key \"\(long)\" in key(\"\(long)\"); " + Self.farOff)
    }

    @Test("kernel names are written as the docs write them")
    func shownNames() {
        #expect(displayName(ofKernel: "KEY_PAGEDOWN") == "PageDown")
        #expect(displayName(ofKernel: "KEY_LEFT") == "Left")
        #expect(displayName(ofKernel: "KEY_ESC") == "Esc")
        #expect(displayName(ofKernel: "KEY_F5") == "F5")
        #expect(displayName(ofKernel: "KEY_A") == "A")
        #expect(displayName(ofKernel: "KEY_KPENTER") == "KPEnter")
        #expect(displayName(ofKernel: "KEY_TOUCHPAD_TOGGLE") == "TouchpadToggle")
    }

    @Test("the edit distance counts a swap as one and stops past its limit")
    func distance() {
        func d(_ a: String, _ b: String, _ limit: Int = 9) -> Int? {
            editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: limit)
        }
        #expect(d("esc", "ecs") == 1)
        #expect(d("pagedwn", "pagedown") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("kitten", "sitting", 2) == nil)
        #expect(d("", "abc") == 3)
        #expect(d("a", "abcdef", 2) == nil)
    }
}

@Suite("Hostile key() strings")
struct HostileKeyStringTests {
    @Test("long, non-ASCII, NUL and + strings get a short clear message")
    func hostile() {
        let cases: [(String, String)] = [
            (String(repeating: "+", count: 100_000), "write keys joined by +"),
            (String(repeating: "x", count: 100_000), "unknown key"),
            (String(repeating: "é", count: 50_000), "unknown key"),
            (String(repeating: "\0", count: 10_000), "unknown key"),
            (String(repeating: "q+", count: 30_000) + "Blorp", "unknown key \"Blorp\""),
            (String(repeating: "a+", count: 30_000) + "+", "write keys joined by +"),
            ("ctrl+\u{212A}P0", "unknown key \"\u{212A}P0\""),
            ("ctrl+a\u{301}", "unknown key \"a\u{301}\""),
            ("+\u{301}", "unknown key"),
            ("\n", #"unknown key "\u{A}""#),
            (String(repeating: "_", count: 100_000) + "PageDwn", "names are those of"),
        ]
        for (text, expected) in cases {
            guard case .failure(let e) = KeyCombo.parse(text) else {
                Issue.record("\(text.prefix(20).debugDescription) parsed")
                continue
            }
            #expect(e.message.contains(expected), "\(e.message.prefix(200))")
            #expect(e.message.utf8.count < 600, "\(e.message.prefix(200))")
        }
    }

    @Test("a NUL or a newline in a name is shown escaped as the terminal text elsewhere is, on the message's line")
    func escaped() {
        guard case .failure(let e) = KeyCombo.parse("ctrl+Page\0Down\n") else {
            Issue.record("parsed")
            return
        }
        #expect(e.message == #"unknown key "Page\u{0}Down\u{A}" in key("ctrl+Page\u{0}Down\u{A}"); did you mean PageDown?"#)
        #expect(!e.message.contains("\0") && !e.message.contains("\n"))
    }

    @Test("a long name is cut in the message, with how much is left out")
    func cut() {
        let name = String(repeating: "q", count: 100)
        guard case .failure(let e) = KeyCombo.parse(name) else {
            Issue.record("parsed")
            return
        }
        let shown = String(repeating: "q", count: 64) + "... (36 more bytes)"
        #expect(e.message == "unknown key \"\(shown)\" in key(\"\(shown)\"); " + UnknownKeyNameTests.farOff)
    }

    @Test("thousands of keys press each key once")
    func manyKeys() {
        #expect(codes(Array(repeating: "a", count: 20_000).joined(separator: "+")) == [30])
    }
}

@Suite("Key names back from codes")
struct KeyCodeNameTests {
    @Test("a code the kernel names twice gets the name it defines by number, the same every run")
    func primaryNames() {
        #expect(KeyCombo.name(of: 152) == "KEY_COFFEE")
        #expect(KeyCombo.name(of: 122) == "KEY_HANGEUL")
        #expect(KeyCombo.name(of: 372) == "KEY_FULL_SCREEN")
        #expect(KeyCombo.name(of: 109) == "KEY_PAGEDOWN")
        #expect(KeyCombo.name(of: 0xFFFF) == nil)
        // Every code the keyboard can type has a name.
        for code in KeyCombo.allCodes { #expect(KeyCombo.name(of: code) != nil, "\(code)") }
    }
}
