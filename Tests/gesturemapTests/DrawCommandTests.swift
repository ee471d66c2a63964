import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Counts the elements of an SVG, which must be well-formed XML to be read at all.
private final class SVGCensus: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var texts: [String] = []
    /// Each text's fill colour, in the order of `texts`.
    var fills: [String] = []
    private var inText = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements[name, default: 0] += 1
        if name == "text" { inText = true; texts.append(""); fills.append(attributes["fill"] ?? "") }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inText = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText, !texts.isEmpty { texts[texts.count - 1] += string }
    }

    /// The texts drawn in `fill`, joined: the list below a panel wraps its lines.
    func texts(in fill: String) -> String {
        zip(texts, fills).filter { $0.1 == fill }.map(\.0).joined(separator: " ")
            .split(separator: " ").joined(separator: " ")
    }

    static func read(_ svg: String) -> SVGCensus? {
        let census = SVGCensus()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = census
        return parser.parse() ? census : nil
    }
}

private let realData = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real").path
private let hasRealData = FileManager.default.fileExists(atPath: realData + "/evemu-devices")
private let hasRenderer = FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")

@Suite("gesturemap draw", .serialized)
struct DrawCommandTests {
    static let everyKind = """
        on({ kind = "swipe", fingers = "any" }, function(g) emit("swipe") end)
        on({ kind = "tap", fingers = "any" }, function(g) emit("tap") end)
        on({ kind = "pinch", fingers = "any" }, function(g) emit("pinch") end)
        """

    @Test("a long input draws its first 100 sequences and says how to draw another")
    func mostPanels() throws {
        let synth = try Binary.run(["synth", "tap", "swipe left", "--count", "103", "--seed", "2"])
        let input = try Binary.temporaryFile("many.jsonl", synth.stdout)
        let result = try Binary.run(["draw", input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "gesturemap draw: drew sequences 1 to 100 of 103; draw another with --sequence N\n")
        let svg = try #require(SVGCensus.read(result.stdout))
        #expect(svg.texts.filter { $0.hasPrefix("Sequence ") }.count == 100)
        let last = try Binary.run(["draw", input.path, "--sequence", "103"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(SVGCensus.read(last.stdout)?.texts.contains { $0.hasPrefix("Sequence 103 · ") } == true)
    }

    @Test("one panel per touch sequence, one path per finger, each gesture labelled")
    func panels() throws {
        let synth = try Binary.run(["synth", "two-finger swipe left", "tap", "three-finger swipe up", "--seed", "5"])
        let input = try Binary.temporaryFile("three.jsonl", synth.stdout)
        let rules = try Binary.temporaryFile("kinds.lua", Self.everyKind)
        let result = try Binary.run(["draw", input.path, "--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        guard let svg = SVGCensus.read(result.stdout) else {
            Issue.record("not well-formed XML: \(result.stdout.prefix(300))")
            return
        }
        // Two fingers, one (a tap rolls a little too), three.
        #expect(svg.elements["polyline"] == 6)
        #expect(svg.texts.filter { $0.hasPrefix("Sequence ") }.count == 3)
        #expect(svg.texts.contains { $0.hasPrefix("Sequence 1 · ") && $0.hasSuffix(" · 2 fingers") })
        #expect(svg.texts.contains { $0.contains("swipe left, 2 fingers") })
        #expect(svg.texts.contains { $0.contains("← rule \"any-finger swipe\"") })
        #expect(svg.texts.contains { $0.contains("tap, 1 finger") })
        #expect(svg.texts.contains { $0.contains("swipe up, 3 fingers") })
        #expect(svg.texts.contains("gesturemap synth panel · 255.9 × 143.9 mm"))
    }

    @Test("--sequence picks one panel; past the last it says how many there are")
    func sequence() throws {
        let synth = try Binary.run(["synth", "swipe left", "tap", "--seed", "2"])
        let input = try Binary.temporaryFile("two.jsonl", synth.stdout)
        let second = try Binary.run(["draw", input.path, "--sequence", "2"])
        #expect(second.status == 0)
        let texts = SVGCensus.read(second.stdout)?.texts ?? []
        #expect(texts.filter { $0.hasPrefix("Sequence ") }.count == 1)
        #expect(texts.contains { $0.hasPrefix("Sequence 2 · ") })
        // The built-in rules bind no tap.
        #expect(texts.contains("no gesture recognized"))

        let beyond = try Binary.run(["draw", input.path, "--sequence", "3"])
        #expect(beyond.status == 64)
        #expect(beyond.errorLines == ["gesturemap draw: --sequence 3, but \(input.path) has 2 touch sequences"])
        let zero = try Binary.run(["draw", input.path, "--sequence", "0"])
        #expect(zero.errorLines.first == "gesturemap draw: --sequence takes a sequence's number, 1 or more, not \"0\"")
    }

    @Test("names with markup are escaped, and an input with no touches still draws")
    func escaping() throws {
        let header = #"{"device": {"name": "Panel <b> & \"co\"", "x": {"min": 0, "max": 1000, "resolution": 10}, "y": {"min": 0, "max": 500, "resolution": 10}}}"#
        let events = #"{"t":0,"ev":"down","id":1,"x":100,"y":100}"# + "\n" + #"{"t":0.05,"ev":"up","id":1}"#
        let input = try Binary.temporaryFile("odd.jsonl", header + "\n" + events + "\n")
        let result = try Binary.run(["draw", input.path])
        let svg = SVGCensus.read(result.stdout)
        #expect(svg != nil)
        #expect(svg?.texts.contains("Panel <b> & \"co\" · 100 × 50 mm") == true)

        let empty = try Binary.temporaryFile("empty.jsonl", header + "\n")
        let none = try Binary.run(["draw", empty.path])
        #expect(none.status == 0)
        #expect(SVGCensus.read(none.stdout)?.texts.contains("No touches in this input.") == true)
    }

    @Test("-o into a directory the user cannot write: exit 74 naming the file, and nothing left there")
    func unwritableDirectory() throws {
        let synth = try Binary.run(["synth", "tap", "--seed", "4"])
        let input = try Binary.temporaryFile("tap.jsonl", synth.stdout)
        #expect(chmod(input.deletingLastPathComponent().path, 0o755) == 0 && chmod(input.path, 0o644) == 0)
        let dir = try Binary.temporaryDirectory()
        #expect(chmod(dir.path, 0o555) == 0)
        defer { chmod(dir.path, 0o755) }
        // Root writes anywhere: the run is made as a user with no privileges.
        let out = dir.appendingPathComponent("out.svg").path
        let result = try Binary.run(["draw", input.path, "-o", out], unprivileged: true)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.errorLines == ["gesturemap draw: cannot write \(out): Permission denied"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("-o with a name as long as a name may be: written, and nothing else left beside it")
    func longName() throws {
        let synth = try Binary.run(["synth", "tap", "--seed", "4"])
        let input = try Binary.temporaryFile("tap.jsonl", synth.stdout)
        let dir = try Binary.temporaryDirectory()
        let name = String(repeating: "d", count: 250) + ".svg"
        let result = try Binary.run(["draw", input.path, "-o", dir.appendingPathComponent(name).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [name])
        #expect(SVGCensus.read(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) != nil)
    }

    @Test("-o writes the file, and a real renderer (rsvg-convert) draws it", .enabled(if: hasRenderer, "rsvg-convert is not installed (Debian's librsvg2-bin)"))
    func renders() throws {
        let synth = try Binary.run(["synth", "pinch out", "--seed", "4"])
        let input = try Binary.temporaryFile("pinch.jsonl", synth.stdout)
        let svgURL = input.deletingLastPathComponent().appendingPathComponent("pinch.svg")
        let pngURL = input.deletingLastPathComponent().appendingPathComponent("pinch.png")
        let rules = try Binary.temporaryFile("kinds.lua", Self.everyKind)
        let result = try Binary.run(["draw", input.path, "--rules", rules.path, "-o", svgURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        process.arguments = [svgURL.path, "-o", pngURL.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(message.isEmpty)
        let png = try Data(contentsOf: pngURL)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // The IHDR chunk holds the width and height the SVG asked for.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width > 400)
    }

    @Test("a real recording: the Atmel touchscreen's four-finger drag", .enabled(if: hasRealData, "../shared/data/real is absent"))
    func atmel() throws {
        let dir = realData + "/evemu-devices/touchscreens/"
        let desc = try Data(contentsOf: URL(fileURLWithPath: dir + "Atmel maXTouch Touchscreen.desc"))
        let events = try Data(contentsOf: URL(fileURLWithPath: dir + "Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let input = try Binary.temporaryFile("atmel.evemu", "")
        try (desc + events).write(to: input)
        let rules = try Binary.temporaryFile("kinds.lua", Self.everyKind)
        let result = try Binary.run(["draw", input.path, "--rules", rules.path])
        let svg = SVGCensus.read(result.stdout)
        #expect(svg?.elements["polyline"] == 4)
        // The panel gives no resolution: drawn at a typical 13.3-inch touchscreen's size.
        #expect(svg?.texts.contains("Atmel maXTouch Touchscreen · 289.7 × 173.7 mm") == true)
        #expect(svg?.texts.contains { $0.contains("swipe down, 4 fingers") } == true)
    }

    // MARK: - Near misses, in grey

    static let grey = "#6e7781"

    /// One finger dragged 42 mm left over 1.5 s: far enough for a swipe, too slow for one.
    static let slowDrag: String = {
        let header = #"{"device": {"name": "Test pad", "x": {"min": 0, "max": 1000, "resolution": 10}, "y": {"min": 0, "max": 600, "resolution": 10}}}"#
        var lines = [header, #"{"t":0,"ev":"down","id":1,"x":700,"y":300}"#]
        for k in 1...30 { lines.append(#"{"t":\#(Double(k) * 0.05),"ev":"move","id":1,"x":\#(700 - k * 14),"y":300}"#) }
        lines.append(#"{"t":1.55,"ev":"up","id":1}"#)
        return lines.joined(separator: "\n") + "\n"
    }()

    /// The slow drag drawn with a swipe, a pan and a tap rule (in another mode).
    static func drawSlowDrag() throws -> URL {
        let input = try Binary.temporaryFile("slow.jsonl", Self.slowDrag)
        let rules = try Binary.temporaryFile("swipe.lua", """
            on("swipe left", function(g) emit("left") end)
            on("pan", function(g) emit("pan") end)
            on("tap", function(g) emit("tap") end, { mode = "editing" })
            """)
        let svgURL = input.deletingLastPathComponent().appendingPathComponent("slow.svg")
        let result = try Binary.run(["draw", input.path, "--rules", rules.path, "-o", svgURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        return svgURL
    }

    @Test("a slow drag: the swipe rule in grey with explain's reason, crossed where it failed")
    func slowDragMiss() throws {
        let svgURL = try Self.drawSlowDrag()
        let svg = try #require(SVGCensus.read(try String(contentsOf: svgURL, encoding: .utf8)))
        let grey = svg.texts(in: Self.grey)
        #expect(grey.contains("rule \"swipe left\": swipe failed at 1.55 s: lifted too slow: speed "), "\(grey)")
        #expect(grey.contains(" mm/s < 50 mm/s (swipe_min_speed)"), "\(grey)")
        // The pan fired; the tap rule was never live (another mode): neither is a miss.
        #expect(svg.texts.contains { $0.contains("pan left, 1 finger") })
        #expect(!grey.contains("pan"))
        #expect(!grey.contains("tap"))
        // The cross where the swipe failed: the finger's last point, 30 mm from the left.
        #expect(svg.elements["line"].map { $0 >= 3 } == true)
    }

    @Test("the slow drag's picture renders in rsvg-convert", .enabled(if: hasRenderer, "rsvg-convert is not installed (Debian's librsvg2-bin)"))
    func slowDragRenders() throws {
        let svgURL = try Self.drawSlowDrag()
        let pngURL = svgURL.deletingLastPathComponent().appendingPathComponent("slow.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        process.arguments = [svgURL.path, "-o", pngURL.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try Data(contentsOf: pngURL).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("many rules that missed: the first four listed, rules for as many fingers first, the rest counted")
    func manyMisses() throws {
        let input = try Binary.temporaryFile("slow.jsonl", Self.slowDrag)
        let rules = try Binary.temporaryFile("many.lua", """
            on("two-finger swipe up", function(g) emit("a") end)
            on("three-finger swipe up", function(g) emit("b") end)
            on("swipe left", function(g) emit("c") end)
            on("swipe right", function(g) emit("d") end)
            on("tap", function(g) emit("e") end)
            on("double tap", function(g) emit("f") end)
            on("long press", function(g) emit("g") end)
            """)
        let result = try Binary.run(["draw", input.path, "--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try #require(SVGCensus.read(result.stdout))
        let grey = svg.texts(in: Self.grey)
        #expect(grey.contains("rule \"swipe left\": swipe failed"))
        #expect(grey.contains("rule \"tap\": tap failed at 0.20 s: moved 5.6 mm > 5 mm (tap_max_movement)"), "\(grey)")
        #expect(!grey.contains("two-finger swipe up") && !grey.contains("2-finger swipe up"), "\(grey)")
        #expect(svg.texts.contains { $0.hasPrefix("+3 more rules that did not fire: gesturemap explain lists them") })
    }

    @Test("a real recording: the slow two-finger drag names swipe_min_speed", .enabled(if: hasRealData, "../shared/data/real is absent"))
    func realSlowDrag() throws {
        let path = realData + "/chromeos-autotest-firmware_TouchMTB/data/two_finger_tracking.diagonal.slow.dat"
        let result = try Binary.run(["draw", path])
        #expect(result.status == 0, "\(result.stderr)")
        let grey = SVGCensus.read(result.stdout)?.texts(in: Self.grey) ?? ""
        #expect(grey.contains("rule \"2-finger swipe left\": swipe failed at 76457.63 s: lifted too slow: speed 32 mm/s < 50 mm/s (swipe_min_speed)"), "\(grey)")
    }
}

extension DrawCommandTests {
    @Test("a mouse's recording: each press a panel with the pointer's path in mm from the press, and what it was read as")
    func mousePresses() throws {
        let rules = try Binary.temporaryFile("mouse.lua", #"on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)"# + "\n")
        var s = KernelMouse.Script()
        s.drag(KernelMouse.right, dx: 0, dy: -20, packets: 30)
        s.pause(0.5)
        s.drag(KernelMouse.right, dx: -20, dy: 0, packets: 30)
        let result = try Binary.run(["draw", "--rules", rules.path, try s.file("strokes.evemu")])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try #require(SVGCensus.read(result.stdout))
        #expect(svg.elements["polyline"] == 2)
        #expect(svg.texts.contains("Press 1 · right button · 0.10–0.35 s"))
        #expect(svg.texts.contains("gesturemap kernel-test mouse · mm from the press"))
        // 600 counts left at 1000 dpi: the panel spans the 15.2 mm path and its margin.
        #expect(svg.texts.contains("-17.6 mm"))
        #expect(svg.texts(in: "#6e7781").contains("read as: stroke up, which no rule names; the nearest: rule \"stroke left\""))
        #expect(svg.texts(in: "#1f2328").contains("read as: stroke left, taken by rule \"stroke left\""))
    }
}
