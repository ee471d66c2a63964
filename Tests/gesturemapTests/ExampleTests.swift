import Foundation
import Testing

/// Every example is loaded, checked, and run against synthesized gestures.
@Suite("Examples", .serialized)
struct ExampleTests {
    static let examples = ["pager.lua", "presentation.lua", "presenter.lua", "browser.lua", "kiosk.lua", "scrub.lua", "reader.lua", "mouse.lua"]

    static func run(_ example: String, _ phrases: [String], dryRun: Bool = true, seed: Int = 1) throws -> [[String: Any]] {
        let result = try Binary.synthThenRun(phrases, seed: seed, run: (dryRun ? ["--dry-run"] : []) + ["--rules", "examples/" + example])
        #expect(result.status == 0, "\(result.stderr)")
        return result.lines.compactMap(Binary.json)
    }

    /// "KEY_X+" for a press, "KEY_X-" for a release.
    static func keys(_ lines: [[String: Any]]) -> [String] {
        lines.filter { $0["action"] as? String == "key" }.map { "\($0["key"] ?? "")\(($0["value"] as? Int) == 1 ? "+" : "-")" }
    }

    @Test("every example passes gesturemap check", arguments: examples)
    func check(example: String) throws {
        let result = try Binary.run(["check", "examples/" + example])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.errorLines == ["examples/\(example): ok"])
    }

    @Test("pager.lua: next, previous, a two-finger double tap to the first page, and its bounds")
    func pager() throws {
        let lines = try Self.run("pager.lua", ["two-finger swipe left", "two-finger swipe left", "two-finger swipe right",
                                               "two-finger double tap", "two-finger swipe right"], dryRun: false)
        #expect(lines.map { "\($0["action"] ?? "") \($0["page"] ?? "")" } == ["next_page 2", "next_page 3", "prev_page 2", "first_page 1"])
    }

    @Test("presentation.lua: PageDown, PageUp, b to blank, Escape on a long press")
    func presentation() throws {
        let lines = try Self.run("presentation.lua", ["swipe left", "swipe right", "3-finger tap", "long press"])
        #expect(Self.keys(lines) == ["KEY_PAGEDOWN+", "KEY_PAGEDOWN-", "KEY_PAGEUP+", "KEY_PAGEUP-", "KEY_B+", "KEY_B-", "KEY_ESC+", "KEY_ESC-"])
    }

    @Test("presenter.lua (serve's phone remote): Right, Left, b on a two-finger tap, l on a long press")
    func presenter() throws {
        let lines = try Self.run("presenter.lua", ["swipe left", "two-finger swipe right", "two-finger tap", "long press"])
        #expect(Self.keys(lines) == ["KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFT+", "KEY_LEFT-", "KEY_B+", "KEY_B-", "KEY_L+", "KEY_L-"])
    }

    @Test("browser.lua: alt+Left back, alt+Right forward, ctrl+Tab and ctrl+shift+Tab across tabs")
    func browser() throws {
        let lines = try Self.run("browser.lua", ["2-finger swipe right", "2-finger swipe left", "3-finger swipe left", "3-finger swipe right"])
        #expect(Self.keys(lines) == [
            "KEY_LEFTALT+", "KEY_LEFT+", "KEY_LEFT-", "KEY_LEFTALT-",
            "KEY_LEFTALT+", "KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFTALT-",
            "KEY_LEFTCTRL+", "KEY_TAB+", "KEY_TAB-", "KEY_LEFTCTRL-",
            "KEY_LEFTCTRL+", "KEY_LEFTSHIFT+", "KEY_TAB+", "KEY_TAB-", "KEY_LEFTSHIFT-", "KEY_LEFTCTRL-",
        ])
    }

    @Test("kiosk.lua: an edge swipe goes home; a long press opens admin mode, which times back to normal")
    func kiosk() throws {
        let lines = try Self.run("kiosk.lua", ["3-finger tap", "edge swipe from left", "long press", "3-finger tap"])
        #expect(lines.map { $0["action"] as? String ?? "" } == ["exec", "home", "admin", "exec", "settings", "normal"])
        #expect((lines[0]["argv"] as? [String]) == ["kiosk-home"])
        #expect((lines[3]["argv"] as? [String]) == ["kiosk-settings"])
        let admin = try #require(lines[2]["t"] as? Double)
        let normal = try #require(lines[5]["t"] as? Double)
        #expect(abs(normal - admin - 30) < 1e-6)
    }

    /// reader.lua with the focused application printed by an --app-command (its
    /// first line; the command then stays), and the gestures sent once gesturemap
    /// has taken it in: the keys typed (--dry-run), or the lines emitted.
    static func reader(app: String) throws -> [[String: Any]] {
        let synth = try Binary.run(["synth", "2-finger swipe left", "2-finger swipe right", "--seed", "1"])
        let run = try LiveRun(["run", "--dry-run", "-v", "--rules", "examples/reader.lua",
                               "--app-command", "printf '%s\\n' '\(app)'; exec sleep 60"])
        #expect(run.wait { _, err in err.contains("gesturemap: focus: \(app)") }, "\(run.stderr)")
        for line in synth.lines { run.send(line) }
        #expect(run.finish() == 0)
        return run.stdout.split(separator: "\n").compactMap { Binary.json(String($0)) }
    }

    @Test("reader.lua: two fingers left and right turn pages with each program's own keys",
          arguments: [
            ("org.pwmt.zathura", ["KEY_LEFTSHIFT+", "KEY_J+", "KEY_J-", "KEY_LEFTSHIFT-", "KEY_LEFTSHIFT+", "KEY_K+", "KEY_K-", "KEY_LEFTSHIFT-"]),
            ("Evince", ["KEY_PAGEDOWN+", "KEY_PAGEDOWN-", "KEY_PAGEUP+", "KEY_PAGEUP-"]),
            ("org.kde.okular", ["KEY_PAGEDOWN+", "KEY_PAGEDOWN-", "KEY_PAGEUP+", "KEY_PAGEUP-"]),
            ("firefox", ["KEY_LEFTALT+", "KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFTALT-", "KEY_LEFTALT+", "KEY_LEFT+", "KEY_LEFT-", "KEY_LEFTALT-"]),
            ("libreoffice-impress", ["KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFT+", "KEY_LEFT-"]),
            ("com.github.johnfactotum.Foliate", ["KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFT+", "KEY_LEFT-"]),
          ])
    func reader(app: String, keys: [String]) throws {
        #expect(Self.keys(try Self.reader(app: app)) == keys)
    }

    @Test("reader.lua: any other program gets next_page and prev_page lines naming it")
    func readerElsewhere() throws {
        let lines = try Self.reader(app: "foot")
        #expect(lines.map { "\($0["action"] ?? "") \($0["app"] ?? "")" } == ["next_page foot", "prev_page foot"])
    }

    @Test("scrub.lua: a page per 15 mm of drag, forward and back")
    func scrub() throws {
        let lines = try Self.run("scrub.lua", ["pan right", "pan left"], dryRun: false, seed: 3)
        let pages = lines.compactMap { $0["action"] as? String == "page" ? $0["page"] as? Int : nil }
        #expect(lines.first?["action"] as? String == "scrub_start")
        #expect(pages.first == 2)
        #expect(pages.max() ?? 0 >= 3)
        #expect(pages.last == 1)
    }
}
