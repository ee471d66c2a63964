import Foundation
import Testing
import GestureActions

/// What libinput-gestures runs for a file, from Python itself: a small
/// script reads it as libinput-gestures' get_conf, get_conf_line and
/// conf_gesture do (text mode, `strip`, `split`, `isdigit`, `shlex.split`,
/// `expanduser` and `expandvars` on the program), and prints the table the
/// gestures are looked up in, or `refused` when it would stop with an error.
@Suite("import of libinput-gestures files, against Python",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct LibinputGesturesOracleTests {
    static let oracle = #"""
    import json, os, shlex, sys
    motions = {'SWIPE': ('left', 'right', 'up', 'down', 'left_up', 'right_up', 'left_down', 'right_down'),
               'PINCH': ('in', 'out', 'clockwise', 'anticlockwise'), 'HOLD': ('on',)}
    table = {}
    def refuse():
        print('refused')
        sys.exit()
    try:
        with open(sys.argv[1], encoding='utf-8') as f:
            lines = list(f)
    except UnicodeDecodeError:
        refuse()
    for line in lines:
        line = line.strip()
        if not line or line[0] == '#':
            continue
        key, *rest = line.split(maxsplit=1)
        key = key.rstrip(':')
        argument = rest[0] if rest else ''
        if key == 'gesture':
            fields = argument.split(maxsplit=2)
            if len(fields) < 3:
                refuse()
            gesture, motion, command = fields
            if gesture.upper() not in motions or motion.lower() not in motions[gesture.upper()]:
                refuse()
            fingers, *after = command.split(maxsplit=1)
            if fingers.isdigit() and len(fingers) == 1:
                command = after[0] if after else ''
            else:
                fingers = ''
            if not command:
                refuse()
            try:
                words = shlex.split(command)
            except ValueError:
                refuse()
            table[(gesture.upper(), motion.lower(), fingers)] = words
        elif key == 'device':
            if not argument: refuse()
        elif key == 'swipe_threshold':
            try:
                if int(argument) < 0: refuse()
            except ValueError:
                refuse()
        elif key == 'timeout':
            try:
                if not float(argument) >= 0: refuse()
            except ValueError:
                refuse()
        else:
            refuse()
    for (gesture, motion, fingers), words in table.items():
        words[0] = os.path.expandvars(os.path.expanduser(words[0]))
        print(json.dumps([gesture, motion, fingers, words]))
    """#

    static let cases: [(name: String, text: String, exact: Int)] = [
        ("Python's white space and lines", """
        gesture swipe left 3 xdotool key alt+Right
          gesture::   swipe   up   4   echo  x\u{a0}y z
        gesture:\u{1c}swipe\u{0c}right\t3 notify-send "a b" 'c d'
        gesture ſwipe down 3 echo long s
        gesture pinch IN 2 echo "\u{301}in"
        gesture swipe left_up ٣ echo arabic three
        gesture pinch clockwise 3 echo cw # not a comment
        gesture swipe right 4 echo one\rgesture swipe right 4 echo two\r\n# gesture swipe right 4 echo three
        gesture hold on 4 echo hold
        gesture swipe left 3 echo later
        gesture swipe down xdotool key super+d
        timeout 1_0
        """, 9),
        ("an error anywhere", "gesture swipe left 3 echo a\ngesture wave up 3 echo b\ngesture swipe right 3 echo c\n", 0),
        ("a program's name expanded", "gesture swipe left 3 ~/bin/tool a b\ngesture swipe right 3 $HOME/bin/tool\ngesture swipe up 3 _internal ws_up\ngesture swipe up echo every count\n", 1),
    ]

    @Test("import does what libinput-gestures does, or nothing", arguments: cases.indices)
    func againstPython(_ index: Int) throws {
        let (name, text, exact) = Self.cases[index]
        let file = try Binary.temporaryFile("libinput-gestures.conf", text)
        try Self.compare(file, name: name, exact: exact)
    }

    @Test func invalidUTF8() throws {
        let file = try Binary.temporaryFile("libinput-gestures.conf", "")
        try Data("gesture swipe left 3 echo a\ngesture swipe right 3 echo \u{1}\n".utf8.map { $0 == 1 ? 0xFF : $0 }).write(to: file)
        try Self.compare(file, name: "invalid UTF-8", exact: 0)
    }

    static var realFiles: [String] {
        let dir = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/configs/libinput-gestures").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
    }

    @Test("the real libinput-gestures files too", arguments: realFiles)
    func realFile(_ path: String) throws {
        try Self.compare(URL(fileURLWithPath: path), name: URL(fileURLWithPath: path).lastPathComponent, exact: 1)
    }

    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func compare(_ config: URL, name: String, exact: Int) throws {
        let imported = try Binary.run(["import", "--format", "libinput-gestures", config.path])
        let table = try run("/usr/bin/python3", ["-c", oracle, config.path])
        if table == "refused\n" {
            #expect(imported.status == 65, "\(name): libinput-gestures stops with an error")
            #expect(!imported.lines.contains { $0.hasPrefix("on(") }, "\(name): nothing live, \(imported.stdout)")
            return
        }
        let rows = table.split(separator: "\n").compactMap { line -> (gesture: String, motion: String, fingers: String, argv: [String])? in
            guard let cells = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], cells.count == 4,
                  let g = cells[0] as? String, let m = cells[1] as? String, let f = cells[2] as? String, let argv = cells[3] as? [String] else { return nil }
            return (g, m, f, argv)
        }
        // Lines keyed by a digit libinput never reports (٣) never run: nothing to act out.
        let acted = rows.filter { ["", "1", "2", "3", "4", "5"].contains($0.fingers) }
        let phrases = acted.map { row -> String in
            let taken = Set(rows.filter { $0.gesture == row.gesture && $0.motion == row.motion }.map(\.fingers))
            let fingers = row.fingers.isEmpty ? (["3", "4", "2", "5"].first { !taken.contains($0) } ?? "3") : row.fingers
            let gesture: String
            switch (row.gesture, row.motion) {
            case ("HOLD", _): gesture = "long press"
            case ("PINCH", "clockwise"): gesture = "rotate clockwise"
            case ("PINCH", "anticlockwise"): gesture = "rotate counterclockwise"
            case ("PINCH", let m): gesture = "pinch \(m)"
            case (_, let m): gesture = "swipe " + m.split(separator: "_").reversed().joined(separator: "-")
            }
            return "\(fingers)-finger \(gesture)"
        }
        let rules = try Binary.temporaryFile("imported.lua", imported.stdout)
        let done = try ToucheggOracleTests.actOut(phrases, rules: rules, app: "none")
        var same = 0
        for (row, (phrase, actions)) in zip(acted, zip(phrases, done)) {
            let expected = try Self.expected(row.argv)
            if !actions.isEmpty && expected.contains(actions) { same += 1 }
            #expect(actions.isEmpty || expected.contains(actions), "\(name): \(phrase): libinput-gestures runs \(row.argv), the import \(actions)")
        }
        #expect(same >= exact, "\(name): \(same) bindings acted out exactly, not \(exact)")
        print("Python oracle: \(name): \(acted.count) bindings, \(same) acted out exactly, the rest by doing nothing")
    }

    /// What the dry run may show for the command: the program run with its
    /// arguments (a `~` left to sh -c, which the test expands with sh itself),
    /// or, for `xdotool key`, the keys pressed; nothing for the internal commands.
    static func expected(_ argv: [String]) throws -> [[String]] {
        guard let program = argv.first, program != "_internal", program != "_drag" else { return [] }
        var forms = [["exec " + argv.joined(separator: " ")]]
        if argv.count > 2, program == "xdotool", argv[1] == "key" {
            var keys: [String] = []
            for combo in argv.dropFirst(2) {
                guard case .success(let parsed) = KeyCombo.parse(combo) else { return forms }
                keys += parsed.keys.map { "\($0.name)=1" } + parsed.keys.reversed().map { "\($0.name)=0" }
            }
            forms.append(keys)
        }
        return forms
    }
}
