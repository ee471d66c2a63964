import Foundation
@testable import GestureCore

/// The $1 study's logs (Wobbrock, Wilson and Li, UIST 2007), read from
/// ../shared/data/real: each file is one stroke of a named shape, as
/// `<Point X=".." Y=".." T=".."/>` lines. Four people: s02 (every `medium`
/// stroke, and one `slow` and one `fast` of each shape) and s03, s04, s05
/// (every `medium` stroke). The shape limits are judged on each of them apart.
enum DollarLogs {
    struct Sample {
        var shape: String
        /// Within the person's folder: `medium/arrow01.xml`.
        var file: String
        /// The whole path, to read the stroke's timing from.
        var path: String
        var points: [Vector]
    }

    static let people = ["s02", "s03", "s04", "s05"]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data/real/dollar1-unistroke-xml_logs").path

    static func directory(of person: String) -> String { root + "/" + person }

    static func present(_ person: String) -> Bool { FileManager.default.fileExists(atPath: directory(of: person)) }

    /// s02, the person the first limits were set on.
    static var directory: String { directory(of: "s02") }
    static var present: Bool { present("s02") }
    static let samples: [Sample] = samples(of: "s02")

    /// A person's strokes, by speed and then by file name; none when absent.
    static func samples(of person: String) -> [Sample] {
        var all: [Sample] = []
        for speed in ["slow", "medium", "fast"] {
            let folder = directory(of: person) + "/" + speed
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where file.hasSuffix(".xml") {
                guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { continue }
                let shape = String(file.dropLast(4).reversed().drop(while: \.isNumber).reversed())
                all.append(Sample(shape: shape, file: speed + "/" + file, path: folder + "/" + file, points: points(in: text)))
            }
        }
        return all
    }

    static func points(in xml: String) -> [Vector] {
        var out: [Vector] = []
        for line in xml.split(separator: "\n") where line.contains("<Point") {
            guard let x = attribute("X", in: line), let y = attribute("Y", in: line) else { continue }
            out.append(Vector(x, y))
        }
        return out
    }

    private static func attribute(_ name: String, in line: Substring) -> Double? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<end])
    }
}
