import Foundation
import Testing
import GestureActions

/// Each file's imported rules, run with --dry-run for every application and
/// gesture Touchégg would look up (ToucheggOracle, pugixml itself), do what
/// Touchégg does there, or nothing.
@Suite("import of Touchégg files, against pugixml", .enabled(if: ToucheggOracle.missing == nil, "\(ToucheggOracle.missing ?? "")"))
struct ToucheggOracleTests {
    /// Files whose every trap the oracle sees, and how many lookups import must act out exactly.
    static let cases: [(name: String, text: String, exact: Int)] = [
        ("text pieces", """
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>notify-send hello<!-- --> ; touch ~/PWNED</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="DOWN"><action type="RUN_COMMAND"><command>echo a<![CDATA[ b]]> c</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="LEFT"><action type="RUN_COMMAND"><command>rm -rf &dir;/thumbs</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="RIGHT"><action type="RUN_COMMAND"><command>echo x<?pi y?> z &amp;&#65;</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="RUN_COMMAND"><command>  <![CDATA[echo cdata]]></command></action></gesture>
            <gesture type="PINCH" fingers="4" direction="IN"><action type="RUN_COMMAND"><command>first</command><command>second</command></action></gesture>
          </application>
        </touchégg>
        """, 6),
        ("names, types and counts", """
        <touchégg>
          <application name="All">
            <gesture type="swipe" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>lower case type</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="ALL"><action type="RUN_COMMAND"><command>all directions</command></action></gesture>
            <gesture type="PINCH" fingers=" 3" direction="IN"><action type="RUN_COMMAND"><command>spaced count</command></action></gesture>
            <gesture type="PINCH" fingers="03" direction="OUT"><action type="RUN_COMMAND"><command>zero count</command></action></gesture>
            <gesture type="TAP" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>tap up</command></action></gesture>
            <gesture type="TAP" fingers="2" direction="NONE"><action type="RUN_COMMAND"><command>tap</command></action></gesture>
            <gesture type="DOUBLE_TAP" fingers="2"><action type="RUN_COMMAND"><command>double</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="up"><action type="RUN_COMMAND"><command>lower direction</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="DOWN"><action type="run_command"><command>lower action</command></action></gesture>
            <gesture type="DRAG" fingers="5" direction="LEFT"><action type="RUN_COMMAND"><command>drag</command></action></gesture>
          </application>
        </touchégg>
        """, 2),
        ("applications", """
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>everywhere</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>everywhere, later</command></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="RUN_COMMAND"><command>four up</command></action></gesture>
          </application>
          <application name=" Firefox , chromium,Kate">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="SEND_KEYS"><modifiers>Control_L</modifiers><keys>t</keys></action></gesture>
            <gesture type="SWIPE" fingers="4" direction="UP"><action type="MAXIMIZE_RESTORE_WINDOW"/></gesture>
          </application>
          <application name="firefox,All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><command>firefox, later</command></action></gesture>
            <gesture type="PINCH" fingers="2" direction="OUT"><action type="SEND_KEYS"><modifiers> Control_L</modifiers><keys>plus</keys></action></gesture>
          </application>
          <application name="x">
            <gesture type="SWIPE" fingers="1_3" direction="DOWN"><action type="RUN_COMMAND"><command>filed as x_1</command></action></gesture>
          </application>
        </touchégg>
        """, 5),
        ("settings that throw", """
        <touchégg>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="RUN_COMMAND"><times>many</times><command>never</command></action></gesture>
            <gesture type="SWIPE" fingers="3" direction="DOWN"><action type="RUN_COMMAND"><repeat>True</repeat><on> begin</on><command>once</command></action></gesture>
          </application>
        </touchégg>
        """, 1),
    ]

    @Test("import does what Touchégg does, or nothing", arguments: cases.indices)
    func againstPugixml(_ index: Int) throws {
        let (name, text, exact) = Self.cases[index]
        let config = try Binary.temporaryFile("touchegg.conf", text)
        try Self.compare(config, name: name, exact: exact)
    }

    /// Each with how many lookups are acted out exactly: Touchégg 2.x runs no binding of the 1.x file.
    static let configs = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/configs/touchegg")

    @Test("the real Touchégg files too", .enabled(if: FileManager.default.fileExists(atPath: configs.path), "needs ../shared/data/configs beside the package"),
          arguments: [("01-touchegg-builtin-default.conf", 3), ("03-kde-qdbus-multi-app.conf", 20),
                                                    ("16-two-roots-duplicates.conf", 10), ("18-v1-tap-and-hold-rotate.conf", 0)])
    func realFiles(_ file: String, exact: Int) throws {
        try Self.compare(Self.configs.appendingPathComponent(file), name: file, exact: exact)
    }

    /// Every lookup the oracle makes, acted out through the imported rules: the
    /// same command or keys, or nothing; and at least `exact` the same.
    static func compare(_ config: URL, name: String, exact: Int) throws {
        let imported = try Binary.run(["import", "--format", "touchegg", config.path])
        let rules = try Binary.temporaryFile("imported.lua", imported.stdout)
        guard let lookups = try ToucheggOracle.lookups(config) else {
            #expect(imported.status == 65, "\(name): pugixml refuses the file")
            #expect(!imported.lines.contains { $0.hasPrefix("on(") || $0.hasPrefix("for ") }, "\(name): nothing live")
            return
        }
        var same = 0
        for (app, group) in Dictionary(grouping: lookups, by: \.app) {
            let acted = try Self.actOut(group.map(\.phrase), rules: rules, app: app)
            for (lookup, actions) in zip(group, acted) {
                let expected = Self.expected(lookup)
                if actions == expected && !expected.isEmpty { same += 1 }
                #expect(actions.isEmpty || actions == expected,
                        "\(name): in \(app), \(lookup.phrase): Touchégg does \(lookup.what) \(lookup.detail), the import \(actions)")
            }
        }
        #expect(same >= exact, "\(name): \(same) lookups acted out exactly, not \(exact)")
        print("pugixml oracle: \(name): \(lookups.count) lookups, \(same) acted out exactly, the rest by doing nothing")
    }

    /// What Touchégg does, as the dry run would show it.
    static func expected(_ lookup: ToucheggOracle.Lookup) -> [String] {
        switch lookup.what {
        case "command":
            return lookup.detail.isEmpty ? [] : ["exec /bin/sh -c \(lookup.detail)"]
        case "keys":
            // X finds no key for a name not spelt as a keysym (" Control_L", "ctrl"): then import must do nothing.
            let names = lookup.detail.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            guard names.allSatisfy(KeyCombo.isXKeysymSpelling), case .success(let combo) = KeyCombo.parse(lookup.detail) else { return [] }
            return combo.keys.map { "\($0.name)=1" } + combo.keys.reversed().map { "\($0.name)=0" }
        default:
            return []
        }
    }

    /// `sh -c 'exec ~/x "$@"' sh ARGS`, which import writes for a program under
    /// `~`, as the program and arguments the shell runs.
    static func expandingHome(_ argv: [String]) throws -> [String] {
        guard argv.count >= 4, argv[0] == "/bin/sh", argv[1] == "-c", argv[3] == "sh",
              argv[2].hasPrefix("exec ~"), argv[2].hasSuffix(" \"$@\"") else { return argv }
        let word = argv[2].dropFirst(5).dropLast(5)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "printf %s \(word)"]
        let out = Pipe()
        shell.standardOutput = out
        try shell.run()
        let expanded = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        return [expanded] + argv.dropFirst(4)
    }

    /// The gestures made in turn, 2 s apart, through one dry run: what each did.
    static func actOut(_ phrases: [String], rules: URL, app: String) throws -> [[String]] {
        let synth = try Binary.run(["synth"] + phrases.enumerated().map { $0.offset == 0 ? $0.element : $0.element + " after 2" })
        // Each gesture starts where the first finger lands on an empty surface.
        var starts: [Double] = []
        var down = Set<Int>()
        for line in synth.lines {
            guard let event = Binary.json(line), let t = event["t"] as? Double, let id = event["id"] as? Int else { continue }
            if event["ev"] as? String == "down" {
                if down.isEmpty { starts.append(t) }
                down.insert(id)
            } else if event["ev"] as? String == "up" {
                down.remove(id)
            }
        }
        let run = try Binary.run(["run", "--rules", rules.path, "--dry-run", "--no-keyboards", "--app", app], stdin: Data(synth.stdout.utf8))
        var acted = Array(repeating: [String](), count: phrases.count)
        for line in run.lines {
            guard let event = Binary.json(line), let t = event["t"] as? Double,
                  let gesture = starts.lastIndex(where: { $0 <= t }), gesture < acted.count else { continue }
            if let argv = event["argv"] as? [String] {
                acted[gesture].append("exec " + (try expandingHome(argv)).joined(separator: " "))
            } else if event["action"] as? String == "key" {
                acted[gesture].append("\(event["key"] ?? "")=\(event["value"] ?? "")")
            }
        }
        return acted
    }
}
