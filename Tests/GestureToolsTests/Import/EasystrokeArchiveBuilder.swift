import Foundation

/// Writes an Easystroke 0.5.6 actions file whose default list holds one
/// Command per stroke, laid out as `EasystrokeFixtures.current` is: for
/// tests of how strokes read, where drawing each archive by hand adds nothing.
enum EasystrokeArchiveBuilder {
    static func archive(_ entries: [(points: [(Double, Double)], command: String)]) -> String {
        var t = ["22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 \(entries.count) 0"]
        for (i, entry) in entries.enumerated() {
            precondition(entry.points.count >= 2, "the first stroke registers Point; give every stroke two points or more")
            let oid = 4 * i
            let points = entry.points.map { "\($0.0) \($0.1)" }.joined(separator: " ")
            let command = "\(entry.command.utf8.count) \(entry.command)"
            if i == 0 {
                t.append("0 0 5 1 0 \(oid) 0 1 1 0 \(oid + 1) 0 0 1 1 0 1 10 1 5 \(oid + 2) 0 0 \(entry.points.count) 1 0 1 \(points) 0 0 0 32768 0 1 14 7 Command 1 0 \(oid + 3) 0 0 \(command) 0 ")
            } else {
                t.append("5 \(oid) \(oid + 1) 1 1 10 \(oid + 2) \(entry.points.count) 1 \(points) 0 0 0 32768 14 \(oid + 3) \(command) 0 ")
            }
        }
        t.append("7 Default 0 0 0 1 0 0 0 0 0")
        return t.joined(separator: "\n")
    }

    /// A straight stroke from the middle of the unit box, `degrees` clockwise from right (y down).
    static func line(degrees: Double) -> [(Double, Double)] {
        let a = degrees * .pi / 180
        return (0...10).map { i in
            let r = Double(i) / 20
            return (0.5 + r * cos(a), 0.5 + r * sin(a))
        }
    }
}
