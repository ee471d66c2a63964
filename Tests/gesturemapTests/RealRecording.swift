import Foundation
import Testing

// The real evemu recordings and the rules every test of them binds: the plain
// tests (RealRecordingOutcomeTests) and the kernel's (KernelRecordingTests) share them.

/// A gesture line without its time, which live is the kernel's clock.
func withoutTime(_ line: String) -> String {
    line.replacingOccurrences(of: #","t":[-0-9.e+]+"#, with: "", options: .regularExpression)
}

/// Rules for every kind, finger count and direction, so that any difference shows.
let everyGestureRules = """
    local function report(g)
      emit("gesture", { kind = g.kind, fingers = g.fingers, direction = g.direction, taps = g.taps })
    end
    for n = 1, 4 do
      for _, d in ipairs({ "up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right" }) do
        on(n .. "-finger swipe " .. d, report)
      end
      on(n .. "-finger tap", report)
      on(n .. "-finger double tap", report)
      on(n .. "-finger long press", report)
    end
    for _, p in ipairs({ "pinch in", "pinch out", "rotate clockwise", "rotate counterclockwise" }) do on(p, report) end
    """

/// One recording of `../shared/data/real/evemu-devices`, with its device's
/// `.desc` when the recording holds events only.
struct RealRecording: CustomTestStringConvertible, Sendable {
    let events: String
    let descriptionFile: String?
    /// What `gesturemap run` reads: the recording, or its `.desc` and events joined.
    let replayable: String

    var testDescription: String { (events as NSString).lastPathComponent }
    /// Seconds from its first event to its last.
    let duration: Double

    static let directory = Binary.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data/real/evemu-devices").path
    static var present: Bool { FileManager.default.fileExists(atPath: directory) }

    static let all: [RealRecording] = {
        var found: [RealRecording] = []
        for kind in ["touchscreens", "touchpads", "tablets"] {
            let dir = directory + "/" + kind
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            let descs = names.filter { $0.hasSuffix(".desc") }.map { String($0.dropLast(5)) }
            for name in names.sorted() where name.hasSuffix(".events") {
                let path = dir + "/" + name
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                let duration = span(text)
                if text.hasPrefix("N: ") || text.contains("\nN: ") {
                    found.append(RealRecording(events: path, descriptionFile: nil, replayable: path, duration: duration))
                    continue
                }
                // The device whose name is the longest start of the recording's.
                guard let device = descs.filter({ name.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { continue }
                let desc = dir + "/" + device + ".desc"
                found.append(RealRecording(events: path, descriptionFile: desc, replayable: joined(desc, path), duration: duration))
            }
        }
        return found
    }()

    /// From the first `E:` line's time to the last's.
    private static func span(_ text: String) -> Double {
        let times = text.split(separator: "\n").filter { $0.hasPrefix("E: ") }.compactMap { line in
            line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        }
        guard let first = times.first, let last = times.last else { return 0 }
        return last - first
    }

    private static func joined(_ desc: String, _ events: String) -> String {
        let both = ((try? Data(contentsOf: URL(fileURLWithPath: desc))) ?? Data())
            + ((try? Data(contentsOf: URL(fileURLWithPath: events))) ?? Data())
        guard let url = try? Binary.temporaryFile((events as NSString).lastPathComponent, "") else { return events }
        try? both.write(to: url)
        return url.path
    }
}
