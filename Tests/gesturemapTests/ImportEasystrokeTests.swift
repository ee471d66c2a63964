import Foundation
import Testing

/// `gesturemap import` of Easystroke's actions file, through the binary.
@Suite("gesturemap import of Easystroke's actions file")
struct ImportEasystrokeTests {
    /// Easystroke 0.5.6's layout: strokes left and up, and a zigzag of five arms (a drawn shape).
    static let actions = [
        "22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 3 0",
        "0 0 5 1 0 0 0 1 1 0 1 0 0 1 1 0 1 10 1 5 2 0 0 2 1 0 1 1 0.5 0 0.5 0 0 0 32768 0 1 14 7 Command 1 0 3 0 0 20 xdotool key alt+Left 4 back",
        "5 4 5 1 1 10 6 2 1 0.5 1 0.5 0 0 0 0 32768 14 7 14 notify-send up 0 ",
        "5 8 9 1 1 10 10 6 1 0 0 0.2 1 0.4 0 0.6 1 0.8 0 1 1 0 0 0 32768 14 11 18 notify-send zigzag 0 ",
        "7 Default 0 0 0 1 0 0 0 0 0",
    ].joined(separator: "\n")

    func directory(_ files: [String: String]) throws -> URL {
        let dir = try Binary.temporaryDirectory()
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func importsAndPassesCheck() throws {
        let dir = try directory(["actions-0.5.6": Self.actions])
        let file = dir.appendingPathComponent("actions-0.5.6").path
        let imported = try Binary.run(["import", file])
        #expect(imported.status == 0)
        #expect(imported.errorLines == ["\(file):4: warning: unnamed stroke: Command notify-send zigzag: written commented out: its stroke reads as no sure direction, so it is a drawn shape, whose template goes to a shapes file: give --shapes FILE.shapes.jsonl (beside FILE.lua) to import it"])
        #expect(imported.lines.contains("-- The stroke button: middle (X's button 2), Easystroke's default, the middle button (Button2, prefdb.cc): no preferences file beside the actions file."))
        #expect(imported.lines.contains("config{ share_mice = true, stroke_button = \"middle\" }"))
        #expect(imported.lines.contains("on({ kind = \"stroke\", direction = \"left\" }, function(g) shell(\"xdotool key alt+Left\") end, { description = \"back\" })"))
        #expect(imported.lines.contains("on({ kind = \"stroke\", direction = \"up\" }, function(g) shell(\"notify-send up\") end)"))
        let rules = try Binary.temporaryFile("mouse.lua", imported.stdout)
        let checked = try Binary.run(["check", rules.path])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// A shared mouse's recording of a stroke with the middle button through `points` (mm, y down), at 1000 dpi.
    static func stroke(_ points: [(Double, Double)], at start: Double) -> [String] {
        var lines = ["{\"t\":\(start),\"ev\":\"press\",\"button\":\"middle\"}"]
        var t = start
        let first = points.first ?? (0, 0)
        var sent = (x: Int((first.0 * 1000 / 25.4).rounded()), y: Int((first.1 * 1000 / 25.4).rounded()))
        for (a, b) in zip(points, points.dropFirst()) {
            for k in 1...10 {
                t += 0.01
                let x = Int(((a.0 + (b.0 - a.0) * Double(k) / 10) * 1000 / 25.4).rounded())
                let y = Int(((a.1 + (b.1 - a.1) * Double(k) / 10) * 1000 / 25.4).rounded())
                lines.append("{\"t\":\((t * 1000).rounded() / 1000),\"ev\":\"motion\",\"dx\":\(x - sent.x),\"dy\":\(y - sent.y)}")
                sent = (x, y)
            }
        }
        lines.append("{\"t\":\(((t + 0.05) * 1000).rounded() / 1000),\"ev\":\"release\",\"button\":\"middle\"}")
        return lines
    }

    @Test("the imported rules run what Easystroke ran for strokes drawn alike: by direction, and by shape")
    func importedRulesRun() throws {
        let dir = try directory(["actions-0.5.6": Self.actions])
        let imported = try Binary.run(["import", dir.appendingPathComponent("actions-0.5.6").path, "--shapes", dir.appendingPathComponent("mouse.shapes.jsonl").path])
        #expect(imported.status == 0)
        try imported.stdout.write(to: dir.appendingPathComponent("mouse.lua"), atomically: true, encoding: .utf8)
        let checked = try Binary.run(["check", dir.appendingPathComponent("mouse.lua").path])
        #expect(checked.status == 0, "\(checked.stderr)")
        let recording = Self.stroke([(60, 0), (0, 2)], at: 0.1) + Self.stroke([(0, 50), (1, 0)], at: 1) + Self.stroke([(0, 0), (12, 60), (24, 0), (36, 60), (48, 0), (60, 60)], at: 2)
        let ran = try Binary.run(["run", "--rules", dir.appendingPathComponent("mouse.lua").path, "--dry-run", "-"], stdin: Data(recording.joined(separator: "\n").utf8))
        #expect(ran.status == 0)
        let argv = ran.lines.compactMap { Binary.json($0)?["argv"] as? [String] }
        #expect(argv == [["/bin/sh", "-c", "xdotool key alt+Left"], ["/bin/sh", "-c", "notify-send up"], ["/bin/sh", "-c", "notify-send zigzag"]])
    }

    /// `actions` with a fourth entry: the side button (8) acting alone, Command notify-send side.
    static let actionsWithSide = actions
        .replacingOccurrences(of: "0 0 0 0 0 0 3 0\n", with: "0 0 0 0 0 0 4 0\n")
        .replacingOccurrences(of: "\n7 Default", with: "\n5 12 13 1 1 10 14 0 1 8 8 0 32768 14 15 16 notify-send side 0 \n7 Default")

    @Test("an additional button acting alone imports as its click, and a recorded side click runs what Easystroke ran for it; the middle click beside it runs nothing")
    func additionalButtonRuns() throws {
        let dir = try directory(["actions-0.5.6": Self.actionsWithSide])
        let imported = try Binary.run(["import", dir.appendingPathComponent("actions-0.5.6").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.lines.contains("on({ kind = \"click\", button = \"side\" }, function(g) shell(\"notify-send side\") end)"), "\(imported.stdout)")
        try imported.stdout.write(to: dir.appendingPathComponent("mouse.lua"), atomically: true, encoding: .utf8)
        let recording = [
            #"{"t":0.1,"ev":"press","button":"side"}"#, #"{"t":0.2,"ev":"release","button":"side"}"#,
            #"{"t":0.5,"ev":"press","button":"middle"}"#, #"{"t":0.6,"ev":"release","button":"middle"}"#,
        ]
        let ran = try Binary.run(["run", "--rules", dir.appendingPathComponent("mouse.lua").path, "--dry-run", "-"], stdin: Data(recording.joined(separator: "\n").utf8))
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.lines.compactMap { Binary.json($0)?["argv"] as? [String] } == [["/bin/sh", "-c", "notify-send side"]])
    }

    @Test func theButtonComesFromThePreferencesBeside() throws {
        let dir = try directory(["actions-0.5.6": Self.actions, "preferences-0.5.5": "22 serialization::archive 10 0 14 0 0 0 0 1 3\n0 3 0 0 0 1 0"])
        let imported = try Binary.run(["import", dir.appendingPathComponent("actions-0.5.6").path])
        #expect(imported.status == 0)
        #expect(imported.lines.contains("-- The stroke button: right (X's button 3), from \(dir.path)/preferences-0.5.5."))
        #expect(imported.lines.contains("config{ share_mice = true, stroke_button = \"right\" }"))
    }

    @Test func shapesGoToANewFileAndNeverOverOne() throws {
        let dir = try directory(["actions-0.5.6": Self.actions])
        let shapes = dir.appendingPathComponent("mouse.shapes.jsonl")
        let imported = try Binary.run(["import", dir.appendingPathComponent("actions-0.5.6").path, "--shapes", shapes.path])
        #expect(imported.status == 0)
        #expect(imported.stderr == "")
        #expect(imported.lines.contains("on({ kind = \"shape\", button = \"middle\", name = \"easystroke-1\" }, function(g) shell(\"notify-send zigzag\") end)"))
        let written = try String(contentsOf: shapes, encoding: .utf8)
        #expect(written.hasPrefix("{\"name\":\"easystroke-1\",\"points\":[[0,0],[12,60],[24,0],"))
        #expect(written.split(separator: "\n").count == 1)
        let again = try Binary.run(["import", dir.appendingPathComponent("actions-0.5.6").path, "--shapes", shapes.path])
        #expect(again.status == 64)
        #expect(again.errorLines == ["gesturemap import: \(shapes.path) exists, and import never overwrites a shapes file: move it away, or give --shapes a new file's name"])
        #expect(again.stdout == "")
        #expect(try String(contentsOf: shapes, encoding: .utf8) == written)
    }

    @Test func anArchiveEasystrokeCannotLoadImportsNothingLive() throws {
        let dir = try directory(["actions-0.5.6": String(Self.actions.prefix(150))])
        let file = dir.appendingPathComponent("actions-0.5.6").path
        let imported = try Binary.run(["import", file])
        #expect(imported.status == 65)
        #expect(imported.errorLines == ["\(file):2: the archive ends where the version of class Command belongs: it is cut short; Easystroke cannot load the file either (\"Couldn't read action database\") and runs none of it, so nothing is imported"])
        #expect(!imported.lines.contains { !$0.hasPrefix("--") && !$0.isEmpty })
        #expect(imported.lines.contains("-- config{ share_mice = true, stroke_button = \"middle\" }"))
    }

    @Test func shapesAreForEasystrokeAlone() throws {
        let config = try Binary.temporaryFile("libinput-gestures.conf", "gesture swipe left 3 ls\n")
        let imported = try Binary.run(["import", config.path, "--shapes", config.path + ".jsonl"])
        #expect(imported.status == 64)
        #expect(imported.errorLines.first == "gesturemap import: --shapes is for Easystroke's actions file, whose strokes can be drawn shapes; \(config.path) is no such file")
        let forced = try Binary.run(["import", "--format", "easystroke", config.path])
        #expect(forced.status == 65)
        #expect(forced.errorLines == ["\(config.path):1: the length of the archive's signature is a number, not \"gesture\"; Easystroke cannot load the file either (\"Couldn't read action database\") and runs none of it, so nothing is imported"])
    }
}
