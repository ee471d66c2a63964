#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What the live-path tests share: the pager's rules, a swipe to play, and
/// how a test knows the engine is reading a device before it plays into it.
enum LiveEngine {
    static let pager = Binary.packageRoot.appendingPathComponent("examples/pager.lua").path

    /// Waits until `engine` reads the node: it has the node open and waits in
    /// poll, its loop. Only then may a test play: events queued before the
    /// engine asked for CLOCK_MONOTONIC are flushed by the kernel, which queues
    /// a SYN_DROPPED instead, readable only with the next SYN_REPORT.
    static func waitUntilOpened(_ node: String, by engine: Child, timeout: Double = 30) -> Bool {
        let fdDirectory = "/proc/\(engine.pid)/fd"
        return KernelGuest.wait(upTo: timeout) {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []
            let open = fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + $0)) == node }
            let wchan = (try? String(contentsOfFile: "/proc/\(engine.pid)/wchan", encoding: .utf8)) ?? ""
            return open && wchan.contains("poll")
        }
    }

    /// A clean two-finger swipe on the test panel, written for evemu-play.
    static func swipe(_ name: String = "swipe", dx: Double = -60) throws -> String {
        var script = TouchPanel.Script()
        script.twoFingerSwipe(dx: dx)
        return try script.file(name + ".evemu")
    }

    /// The `action` of every JSON line the engine printed.
    static func actions(_ engine: Child) -> [String] {
        engine.outputLines.compactMap { Binary.json($0)?["action"] as? String }
    }

    /// "kind fingers direction" of every gesture line (rules: `everyGestureRules`).
    static func gestures(_ engine: Child) -> [String] {
        engine.outputLines.compactMap(Binary.json).map { line in
            ["kind", "fingers", "direction"].compactMap { line[$0].map { "\($0)" } }.joined(separator: " ")
        }
    }

    /// Every EV_KEY line of `evemu-record`'s output as "KEY_NAME value":
    /// `E: 0.000001 0001 001d 0001	# EV_KEY / KEY_LEFTCTRL            1`.
    static func keysRecorded(_ recording: String) -> [String] {
        recording.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("# EV_KEY /"), let comment = line.split(separator: "#").last else { return nil }
            let words = comment.split(separator: " ").filter { !$0.isEmpty && $0 != "/" }
            guard words.count >= 3 else { return nil }
            return "\(words[1]) \(words[2])"
        }
    }
}
