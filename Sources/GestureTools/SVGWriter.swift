import GestureEngine
import GestureCore

/// SVG elements as text, with numbers rounded to a tenth of a pixel and text escaped.
struct SVGWriter {
    private(set) var text = ""

    mutating func open(width: Double, height: Double) {
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        text += " font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        text += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    }

    mutating func close() {
        text += "</svg>\n"
    }

    mutating func text(_ content: String, x: Double, y: Double, size: Double, weight: String? = nil, fill: String,
                       anchor: String? = nil, italic: Bool = false) {
        text += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
        if let weight { text += " font-weight=\"\(weight)\"" }
        if let anchor { text += " text-anchor=\"\(anchor)\"" }
        if italic { text += " font-style=\"italic\"" }
        text += ">\(SVGWriter.escape(content))</text>\n"
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String, strokeWidth: Double, radius: Double) {
        text += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" rx=\"\(n(radius))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\"/>\n"
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double) {
        text += "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"/>\n"
    }

    mutating func polyline(_ points: [Vector], stroke: String, width: Double) {
        text += "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-opacity=\"0.85\" points=\""
        text += points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        text += "\"/>\n"
    }

    mutating func circle(_ c: Vector, radius: Double, fill: String, stroke: String, strokeWidth: Double) {
        text += "<circle cx=\"\(n(c.x))\" cy=\"\(n(c.y))\" r=\"\(n(radius))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\"/>\n"
    }

    mutating func cross(_ c: Vector, size: Double, stroke: String, width: Double) {
        line(c.x - size, c.y - size, c.x + size, c.y + size, stroke: stroke, width: width)
        line(c.x - size, c.y + size, c.x + size, c.y - size, stroke: stroke, width: width)
    }

    /// A line with an arrowhead at `to`.
    mutating func arrow(from: Vector, to: Vector, stroke: String, width: Double) {
        let d = to - from
        let length = d.length
        guard length > 0.5 else { return }
        let u = d / length
        let normal = Vector(-u.y, u.x)
        let head = min(10, length * 0.5)
        let base = to - u * head
        line(from.x, from.y, base.x, base.y, stroke: stroke, width: width)
        let a = base + normal * (head * 0.45), b = base - normal * (head * 0.45)
        text += "<polygon points=\"\(n(to.x)),\(n(to.y)) \(n(a.x)),\(n(a.y)) \(n(b.x)),\(n(b.y))\" fill=\"\(stroke)\"/>\n"
    }

    /// A numbered disc, for a gesture's place on the surface and its line in the list.
    mutating func badge(_ number: Int, at c: Vector, fill: String) {
        circle(c, radius: 7, fill: fill, stroke: "#ffffff", strokeWidth: 1.5)
        text("\(number)", x: c.x, y: c.y + 3.5, size: 9.5, weight: "bold", fill: "#ffffff", anchor: "middle")
    }

    /// A lettered label on a rounded box as wide as its text, for a near miss.
    mutating func tag(_ label: String, at c: Vector, fill: String) {
        let width = max(14, Double(label.count) * 6 + 8)
        rect(x: c.x - width / 2, y: c.y - 7, width: width, height: 14, fill: fill, stroke: "#ffffff", strokeWidth: 1.5, radius: 7)
        text(label, x: c.x, y: c.y + 3.5, size: 9.5, weight: "bold", fill: "#ffffff", anchor: "middle")
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 has no way to write most control characters, even escaped.
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private func n(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e9 else { return "0" }
        let tenths = Int((v * 10).rounded())  // ok: |v| < 1e9
        let sign = tenths < 0 ? "-" : ""
        let a = abs(tenths)
        return a % 10 == 0 ? "\(sign)\(a / 10)" : "\(sign)\(a / 10).\(a % 10)"
    }
}
