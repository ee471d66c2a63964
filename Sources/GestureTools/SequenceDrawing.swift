import GestureEngine
import GestureCore

/// A picture of touch sequences as SVG: each sequence a panel with the
/// surface to scale in millimetres, one colour per finger, and the gestures
/// recognized on it, numbered on the surface and listed below it.
public struct SequenceDrawing {
    /// A candidate that did not fire, drawn in grey with its reason.
    public struct Miss: Sendable {
        public var position: Vector?
        public var text: String

        public init(position: Vector?, text: String) {
            self.position = position
            self.text = text
        }
    }

    public struct Panel: Sendable {
        public var number: Int
        public var sequence: CapturedSequence
        public var misses: [Miss] = []
        /// Near misses left out of `misses` to keep the panel readable.
        public var moreMisses = 0
        /// A mouse's press rather than a touch sequence: its button, what it
        /// was read as, and whether a rule took it. Its one path is the
        /// pointer's, in millimetres from the press.
        public var press: (button: String, reading: String, taken: Bool)?

        public init(number: Int, sequence: CapturedSequence, misses: [Miss] = [], moreMisses: Int = 0) {
            self.number = number
            self.sequence = sequence
            self.misses = misses
            self.moreMisses = moreMisses
        }
    }

    public var panels: [Panel]
    public var title: String

    public init(panels: [Panel], title: String) {
        self.panels = panels
        self.title = title
    }

    // Layout, in SVG pixels.
    static let surfaceBox = 360.0
    static let panelGap = 28.0
    static let margin = 24.0
    static let headerHeight = 46.0
    static let axisHeight = 22.0
    static let lineHeight = 17.0
    static let columns = 3
    static let tickInterval = 0.1
    /// A finger held for minutes gets ticks further apart, so a panel stays this small.
    static let mostTicks = 200

    /// 100 ms, or longer for a long sequence: at most `mostTicks` a path.
    static func tickInterval(for duration: Double) -> Double {
        guard duration.isFinite, duration > 0 else { return tickInterval }
        return max(tickInterval, duration / Double(mostTicks))
    }
    /// Okabe and Ito's palette, which stays distinct for colour-blind readers
    /// (its yellow left out: too faint on white).
    static let missColour = "#6e7781"
    static let fingerColours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]

    public func svg() -> String {
        let layouts = panels.map(PanelLayout.init)
        let columnCount = min(SequenceDrawing.columns, max(1, layouts.count))
        var columnWidths = [Double](repeating: 0, count: columnCount)
        var rowHeights: [Double] = []
        for (i, layout) in layouts.enumerated() {
            let (row, column) = (i / columnCount, i % columnCount)
            columnWidths[column] = max(columnWidths[column], layout.width)
            if row >= rowHeights.count { rowHeights.append(0) }
            rowHeights[row] = max(rowHeights[row], layout.height)
        }
        let m = SequenceDrawing.margin, gap = SequenceDrawing.panelGap
        let width = max(360, 2 * m + columnWidths.reduce(0, +) + gap * Double(max(0, columnCount - 1)))
        // A long title goes on two lines, broken before its rules, rather than cut.
        var titleLines = [title]
        if fitted(title, width: width - 2 * m, size: 15) != title, let cut = title.firstRange(of: " · rules: ") {
            titleLines = [String(title[..<cut.lowerBound]), "rules: " + title[cut.upperBound...]]
        }
        let titleHeight = 30 + 19 * Double(titleLines.count - 1)
        let height = 2 * m + titleHeight + rowHeights.reduce(0, +) + gap * Double(max(0, rowHeights.count - 1))
        var svg = SVGWriter()
        svg.open(width: width, height: height)
        for (i, line) in titleLines.enumerated() {
            svg.text(fitted(line, width: width - 2 * m, size: 15), x: m, y: m + 8 + 19 * Double(i), size: 15, weight: "bold", fill: "#1f2328")
        }
        if panels.isEmpty {
            svg.text("No touches in this input.", x: m, y: m + 40, size: 13, fill: "#57606a")
        }
        var y = m + titleHeight
        for (row, rowHeight) in rowHeights.enumerated() {
            var x = m
            for column in 0..<columnCount {
                let i = row * columnCount + column
                guard i < layouts.count else { break }
                layouts[i].draw(into: &svg, at: Vector(x, y))
                x += columnWidths[column] + gap
            }
            y += rowHeight + gap
        }
        svg.close()
        return svg.text
    }
}

/// One panel's geometry: the surface's scale and where its list of gestures goes.
private struct PanelLayout {
    let panel: SequenceDrawing.Panel
    /// The area drawn, in mm: the surface, or the touches' extent when the surface is unknown.
    let area: (origin: Vector, size: Vector)
    let knownSurface: Bool
    let scale: Double
    let width: Double
    let height: Double
    /// The list below the surface: each gesture's lines, then each miss's.
    let gestureLines: [[String]]
    let missLines: [[String]]

    init(_ panel: SequenceDrawing.Panel) {
        self.panel = panel
        if let s = panel.sequence.surface, s.width > 0, s.height > 0, s.width.isFinite, s.height.isFinite {
            area = (.zero, Vector(s.width, s.height))
            knownSurface = true
        } else {
            area = PanelLayout.extent(of: panel.sequence)
            knownSurface = false
        }
        scale = SequenceDrawing.surfaceBox / max(area.size.x, area.size.y)
        let width = max(area.size.x * scale, 260)
        self.width = width
        gestureLines = panel.sequence.gestures.map { g in
            let rule = "   ← rule \"\(g.rule)\"" + (g.definedAt.isEmpty ? "" : " (\(baseName(g.definedAt)))")
            return wrapped("\(fixed(g.event.time, 3)) s   \(GestureWords.describe(g.event))", width: width - 20, size: 11)
                + wrapped(rule, width: width - 20, size: 11)
        }
        missLines = panel.misses.map { wrapped($0.text, width: width - 20, size: 11) }
            + (panel.moreMisses > 0 ? [[PanelLayout.moreWords(panel.moreMisses)]] : [])
            + (panel.press.map { [wrapped("read as: " + $0.reading, width: width - 20, size: 11)] } ?? [])
        // "No gesture recognized" heads the misses when nothing fired.
        let lines = (gestureLines + missLines).reduce(0) { $0 + $1.count } + (panel.sequence.gestures.isEmpty && !missLines.isEmpty ? 1 : 0)
        height = SequenceDrawing.headerHeight + area.size.y * scale + SequenceDrawing.axisHeight
            + Double(max(1, lines)) * SequenceDrawing.lineHeight + 8
    }

    static func letter(_ n: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String(letters[n % letters.count])
    }

    static func moreWords(_ n: Int) -> String {
        "+\(n) more rule\(n == 1 ? "" : "s") that did not fire: gesturemap explain lists them"
    }

    /// The touches' bounding box with a margin, at least 20 mm across.
    static func extent(of sequence: CapturedSequence) -> (Vector, Vector) {
        var lo = Vector(Double.infinity, Double.infinity), hi = Vector(-Double.infinity, -Double.infinity)
        for path in sequence.paths {
            for p in path.points where p.x.isFinite && p.y.isFinite {
                lo = Vector(min(lo.x, p.x), min(lo.y, p.y))
                hi = Vector(max(hi.x, p.x), max(hi.y, p.y))
            }
        }
        guard lo.x <= hi.x else { return (.zero, Vector(20, 20)) }
        let size = Vector(max(20, (hi.x - lo.x) * 1.2), max(20, (hi.y - lo.y) * 1.2))
        let centre = (lo + hi) / 2
        return (centre - size / 2, size)
    }

    func draw(into svg: inout SVGWriter, at origin: Vector) {
        let s = panel.sequence
        let top = origin.y + SequenceDrawing.headerHeight
        let surfacePx = Vector(area.size.x * scale, area.size.y * scale)
        func map(_ p: Vector) -> Vector {
            Vector(origin.x + (p.x - area.origin.x) * scale, top + (p.y - area.origin.y) * scale)
        }

        let fingers = s.paths.count
        var heading = "Sequence \(panel.number) · \(fixed(s.start, 2))–\(fixed(s.end, 2)) s · \(fingers) finger\(fingers == 1 ? "" : "s")"
        if fingers == 0 { heading = "Sequence \(panel.number) · \(fixed(s.start, 2)) s" }
        if let press = panel.press { heading = "Press \(panel.number) · \(press.button) button · \(fixed(s.start, 2))–\(fixed(s.end, 2)) s" }
        svg.text(fitted(heading, width: width, size: 13), x: origin.x, y: origin.y + 14, size: 13, weight: "bold", fill: "#1f2328")
        let device = s.deviceName.map(baseName) ?? "device \(s.device)"
        var size = knownSurface ? "\(millimetres(area.size.x)) × \(millimetres(area.size.y)) mm" : "size unknown: the touches’ extent"
        if panel.press != nil { size = "mm from the press" }
        svg.text(fitted("\(device) · \(size)", width: width, size: 11), x: origin.x, y: origin.y + 32, size: 11, fill: "#57606a")

        // The surface, with a millimetre grid: fine every 10 mm, bolder every 50;
        // past half a metre across (a mouse's long drag) the lines spread, at most 50 of them an axis.
        svg.rect(x: origin.x, y: top, width: surfacePx.x, height: surfacePx.y, fill: "#f6f8fa", stroke: "#8c959f", strokeWidth: 1, radius: 3)
        let span = max(area.size.x, area.size.y)
        let step = span.isFinite && span > 500 ? (span / 500).rounded(.up) * 10 : 10
        for (axis, length) in [(0, area.size.x), (1, area.size.y)] {
            let first = (axis == 0 ? area.origin.x : area.origin.y)
            guard first.isFinite, length.isFinite, abs(first) + length < 1e15 else { continue }
            var mm = (first / step).rounded(.up) * step
            while mm < first + length {
                let major = ((mm / (step * 5)).rounded() * step * 5) == mm
                let colour = major ? "#d0d7de" : "#eaeef2"
                if axis == 0 {
                    let x = map(Vector(mm, 0)).x
                    if x > origin.x + 0.5 && x < origin.x + surfacePx.x - 0.5 { svg.line(x, top, x, top + surfacePx.y, stroke: colour, width: 1) }
                } else {
                    let y = map(Vector(0, mm)).y
                    if y > top + 0.5 && y < top + surfacePx.y - 0.5 { svg.line(origin.x, y, origin.x + surfacePx.x, y, stroke: colour, width: 1) }
                }
                mm += step
            }
        }
        let axisY = top + surfacePx.y + 14
        svg.text("\(millimetres(area.origin.x)) mm", x: origin.x, y: axisY, size: 10, fill: "#57606a")
        svg.text("\(millimetres(area.origin.x + area.size.x)) mm", x: origin.x + surfacePx.x, y: axisY, size: 10, fill: "#57606a", anchor: "end")

        // Finger paths, with a dot every 100 ms (further apart past 20 s), a
        // filled start and a hollow end.
        let interval = SequenceDrawing.tickInterval(for: s.end - s.start)
        for (i, path) in s.paths.enumerated() {
            let colour = SequenceDrawing.fingerColours[i % SequenceDrawing.fingerColours.count]
            let points = path.points.map(map)
            guard let first = points.first, let last = points.last else { continue }
            if points.count > 1 { svg.polyline(points, stroke: colour, width: 2.5) }
            var tick = s.start + interval
            var k = 1
            var ticks = 0
            while k < path.times.count && ticks <= SequenceDrawing.mostTicks {
                if path.times[k] < tick { k += 1; continue }
                if path.times[k - 1] <= tick {
                    let f = (tick - path.times[k - 1]) / max(1e-9, path.times[k] - path.times[k - 1])
                    svg.circle(points[k - 1] + (points[k] - points[k - 1]) * f, radius: 2.2, fill: "#ffffff", stroke: colour, strokeWidth: 1.2)
                }
                tick += interval
                ticks += 1
            }
            svg.circle(first, radius: 5, fill: colour, stroke: "#ffffff", strokeWidth: 1.5)
            switch path.ending {
            case .lifted: svg.circle(last, radius: 5, fill: "#ffffff", stroke: colour, strokeWidth: 2)
            case .cancelled: svg.cross(last, size: 5, stroke: colour, width: 2)
            case .stillDown: break
            }
            svg.text("\(i + 1)", x: first.x + 7, y: first.y - 6, size: 10, weight: "bold", fill: colour)
        }

        // Recognized gestures: an arrow for what moved, a numbered marker, and a line below.
        var listY = axisY + 8 + SequenceDrawing.lineHeight
        for (n, gesture) in panel.sequence.gestures.enumerated() {
            let e = gesture.event
            let at = map(e.position)
            if e.delta.length > 2, e.kind != .tap, e.kind != .longPress, e.kind != .shape {
                svg.arrow(from: map(e.position - e.delta), to: at, stroke: "#1f2328", width: 2)
            }
            // The badge stands off the point it marks, so it hides no finger's path.
            let badge = at + Vector(-14, -14)
            svg.line(badge.x, badge.y, at.x, at.y, stroke: "#1f2328", width: 1)
            svg.circle(at, radius: 2, fill: "#1f2328", stroke: "#1f2328", strokeWidth: 0)
            svg.badge(n + 1, at: badge, fill: "#1f2328")
            svg.badge(n + 1, at: Vector(origin.x + 8, listY - 4), fill: "#1f2328")
            for line in gestureLines[n] {
                svg.text(line, x: origin.x + 20, y: listY, size: 11, fill: "#1f2328")
                listY += SequenceDrawing.lineHeight
            }
        }
        if panel.sequence.gestures.isEmpty, panel.press == nil {
            svg.text("no gesture recognized", x: origin.x + 2, y: listY, size: 11, fill: "#8c959f", italic: true)
            listY += SequenceDrawing.lineHeight
        }
        // Near misses: a grey cross where it was decided, lettered, and the reason below.
        // Misses decided at one place share a cross, its label listing their letters.
        var places: [(at: Vector, letters: [String])] = []
        for (n, miss) in panel.misses.enumerated() {
            guard let p = miss.position else { continue }
            let at = map(p)
            if let i = places.firstIndex(where: { ($0.at - at).length < 6 }) { places[i].letters.append(PanelLayout.letter(n)) }
            else { places.append((at, [PanelLayout.letter(n)])) }
        }
        for place in places {
            let tag = place.at + Vector(12, 14)
            svg.line(place.at.x, place.at.y, tag.x - 4, tag.y - 4, stroke: SequenceDrawing.missColour, width: 1)
            svg.cross(place.at, size: 4, stroke: SequenceDrawing.missColour, width: 1.8)
            svg.tag(place.letters.joined(separator: " "), at: tag, fill: SequenceDrawing.missColour)
        }
        for (n, lines) in missLines.enumerated() {
            if n < panel.misses.count { svg.tag(PanelLayout.letter(n), at: Vector(origin.x + 8, listY - 4), fill: SequenceDrawing.missColour) }
            // A press a rule took reads in black, as a gesture that fired does.
            let colour = panel.press?.taken == true ? "#1f2328" : SequenceDrawing.missColour
            for line in lines {
                svg.text(line, x: origin.x + 20, y: listY, size: 11, fill: colour, italic: n >= panel.misses.count && panel.press == nil)
                listY += SequenceDrawing.lineHeight
            }
        }
    }
}

/// Gestures in words, as the phrases rules use.
enum GestureWords {
    /// "a swipe left, 2 fingers", "an edge swipe from left, 1 finger".
    static func withArticle(_ e: GestureEvent) -> String {
        let words = describe(e)
        return ("aeiou".contains(words.first ?? "x") ? "an " : "a ") + words
    }

    static func describe(_ e: GestureEvent) -> String {
        var words: [String] = []
        switch e.kind {
        case .tap: words.append(e.taps == 2 ? "double tap" : e.taps == 3 ? "triple tap" : "tap")
        case .longPress: words.append("long press")
        case .edgeSwipe: words.append("edge swipe" + (e.edge.map { " from \($0.rawValue)" } ?? ""))
        case .shape: words.append("shape " + (e.name ?? "") + " (score \(fixed(e.score, 2)))")
        case .custom: words.append(e.name ?? "custom")
        case .click:
            // Where it was, as a click rule's `where` and `edge` ask.
            words.append("click")
            if let n = e.normalized {
                let across = Edge.left.holdsHalf(n) ? "left" : "right", down = Edge.top.holdsHalf(n) ? "top" : "bottom"
                words.append("on the \(across) and \(down) halves")
            }
            if let edge = e.edge { words.append("in the \(edge.rawValue) edge's zone") }
        default:
            words.append(e.kind.rawValue)
            if let d = e.direction { words.append(d.rawValue) }
        }
        var text = words.joined(separator: " ")
        text += ", \(e.fingers) finger\(e.fingers == 1 ? "" : "s")"
        return text
    }
}

/// `text` cut with an ellipsis to about `width` pixels at `size`: a sans-serif
/// character is about 0.6 of the font size wide on average.
func fitted(_ text: String, width: Double, size: Double) -> String {
    let fits = max(4, Int(min(1e6, max(0, width / (size * 0.6)))))  // ok: clamped to 0...1e6
    return text.count <= fits ? text : String(text.prefix(fits - 1)) + "…"
}

/// `text` broken at spaces into lines of about `width` pixels at `size`; a
/// word longer than a line is cut.
func wrapped(_ text: String, width: Double, size: Double) -> [String] {
    let fits = max(8, Int(min(1e6, max(0, width / (size * 0.6)))))  // ok: clamped to 0...1e6
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
        if !line.isEmpty, line.count + 1 + word.count > fits {
            lines.append(line)
            line = "   "
        }
        line += (line.isEmpty || line == "   " ? "" : " ") + word
    }
    if !line.trimmingPrefix(" ").isEmpty { lines.append(line) }
    return lines.map { fitted($0, width: width, size: size) }
}

func baseName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}

/// `v` with `digits` decimals (at most 3), for labels.
func fixed(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite, abs(v) < 1e12 else { return "?" }
    let scale = [1, 10, 100, 1000][max(0, min(3, digits))]
    let units = Int((abs(v) * Double(scale)).rounded())  // ok: |v| < 1e12, scale <= 1000
    let sign = v < 0 && units != 0 ? "-" : ""
    guard scale > 1 else { return sign + "\(units)" }
    let fraction = String(units % scale)
    return sign + "\(units / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

func millimetres(_ v: Double) -> String {
    guard v.isFinite, abs(v) < 1e9 else { return "?" }
    let tenths = Int((v * 10).rounded())  // ok: |v| < 1e9
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(Double(tenths) / 10)"
}
