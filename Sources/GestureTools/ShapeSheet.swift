import GestureEngine
import GestureCore

/// `gesturemap shape list`: the templates a run matches against, as text and
/// as an SVG sheet with a small drawing of each.
public struct ShapeSheet {
    public struct Entry: Sendable {
        public var template: ShapeTemplate
        /// "built-in", or the shapes file it came from.
        public var source: String
    }

    public var entries: [Entry]

    public init(builtIn: [ShapeTemplate], file: ShapeFile?) {
        let taught = Set(file?.templates.map(\.name) ?? [])
        entries = builtIn.filter { !taught.contains($0.name) }.map { Entry(template: $0, source: "built-in") }
            + (file?.templates ?? []).map { Entry(template: $0, source: baseName(file?.path ?? "")) }
    }

    /// One line per shape name: how many templates, from where, and how each may be drawn.
    public var lines: [String] {
        var out: [String] = []
        var seen: [String] = []
        for entry in entries where !seen.contains(entry.template.name) {
            seen.append(entry.template.name)
            let all = entries.filter { $0.template.name == entry.template.name }
            let count = all.count == 1 ? "1 template" : "\(all.count) templates"
            var how: [String] = []
            if entry.template.isLoop { how.append("closed, from any point") }
            how.append(entry.template.anyDirection || entry.template.isLoop ? "either way round" : "as taught")
            out.append("\(entry.template.name.padding(18))\(entry.source.padding(16))\(count.padding(14))\(how.joined(separator: ", "))")
        }
        return out
    }

    // Layout, in SVG pixels.
    static let cell = 130.0
    static let columns = 6
    static let margin = 20.0

    /// A grid of small drawings: each template's points, a dot where it starts and an arrowhead where it ends.
    public func svg(title: String) -> String {
        let columns = min(Self.columns, max(1, entries.count))
        let rows = (entries.count + columns - 1) / columns
        let width = 2 * Self.margin + Double(columns) * Self.cell
        let height = 2 * Self.margin + 30 + Double(max(rows, 1)) * (Self.cell + 24)
        var svg = SVGWriter()
        svg.open(width: width, height: height)
        svg.text(fitted(title, width: width - 2 * Self.margin, size: 15), x: Self.margin, y: Self.margin + 8, size: 15, weight: "bold", fill: "#1f2328")
        if entries.isEmpty { svg.text("No templates.", x: Self.margin, y: Self.margin + 40, size: 13, fill: "#57606a") }
        var counts: [String: Int] = [:]
        for (i, entry) in entries.enumerated() {
            let origin = Vector(Self.margin + Double(i % columns) * Self.cell, Self.margin + 30 + Double(i / columns) * (Self.cell + 24))
            let inset = 14.0
            svg.rect(x: origin.x + 4, y: origin.y + 4, width: Self.cell - 8, height: Self.cell - 8, fill: "#f6f8fa", stroke: "#d0d7de", strokeWidth: 1, radius: 4)
            // Normalized points: centred on 0, larger side 1.
            let size = Self.cell - 2 * inset
            let centre = origin + Vector(Self.cell / 2, Self.cell / 2)
            let points = entry.template.stroke.points.map { centre + $0 * size }
            let colour = entry.source == "built-in" ? "#0072B2" : "#D55E00"
            svg.polyline(points, stroke: colour, width: 2.5)
            if let first = points.first { svg.circle(first, radius: 4, fill: colour, stroke: "#ffffff", strokeWidth: 1) }
            if points.count >= 2 { svg.arrow(from: points[points.count - 2], to: points[points.count - 1], stroke: colour, width: 2.5) }
            counts[entry.template.name, default: 0] += 1
            let total = entries.filter { $0.template.name == entry.template.name }.count
            let label = total > 1 ? "\(entry.template.name) (\(counts[entry.template.name] ?? 1)/\(total))" : entry.template.name
            svg.text(fitted(label, width: Self.cell - 8, size: 11), x: centre.x, y: origin.y + Self.cell + 12, size: 11, fill: "#1f2328", anchor: "middle")
        }
        svg.close()
        return svg.text
    }
}

private extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
