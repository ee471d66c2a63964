import Foundation
import Testing

/// Every real evemu recording, made into a device with `evemu-device` and
/// played into it at its recorded pace, gives live what it gives from its file.
/// The pace is kept by `EventPlayer`, which holds each packet to its recorded
/// time: evemu-play's delays add up under emulation, and a finger resting
/// 0.4 s in the file rested past a long press's 0.5 s live.
///
/// A few play side by side, each into its own device read by its own engine.
/// One test starts every process, from one thread: Foundation's Process,
/// started from two threads at once, can leak one child's pipe into another,
/// and then waits for ever for a pipe that a long-running child holds open.
@Suite("Real recordings played into real devices", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason),
       .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"))
struct KernelRecordingTests {
    static let sideBySide = 4
    /// Later than this, a packet may have changed the gesture (a rest becomes a
    /// long press): the recording is played again, alone.
    static let tolerance = 0.03

    @Test("live through the kernel as from the file: the same gestures, in order, for every recording")
    func liveMatchesFile() throws {
        let rules = try Binary.temporaryFile("every-gesture.lua", everyGestureRules)
        // Longest first, so that each batch is about as long as its longest.
        let recordings = RealRecording.all.sorted { $0.duration > $1.duration }
        #expect(recordings.count >= 40)
        // From the files first, a few at a time: nothing there depends on
        // timing, but the guest charges a starved process for CPU time it
        // never had (no steal time under TCG), and fifty at once on a busy
        // host ran their handlers out of the Lua time budget.
        var fromFile: [String: [String]] = [:]
        for start in stride(from: 0, to: recordings.count, by: Self.sideBySide) {
            let batch = recordings[start..<min(start + Self.sideBySide, recordings.count)]
            let replays = try batch.map { try KernelGuest.gesturemap(["run", "--rules", rules.path, $0.replayable]) }
            for (recording, replay) in zip(batch, replays) {
                #expect(replay.waitForExit(upTo: 300) == 0, "\(recording.testDescription): \(replay.stderr)")
                fromFile[recording.events] = replay.outputLines.map(withoutTime)
            }
        }
        var matched = 0
        var pending = recordings
        for attempt in 1...3 where !pending.isEmpty {
            var lateOnes: [RealRecording] = []
            let size = attempt == 1 ? Self.sideBySide : 1
            for start in stride(from: 0, to: pending.count, by: size) {
                let batch = Array(pending[start..<min(start + size, pending.count)])
                let played = try Self.playLive(batch, rules: rules.path)
                for (recording, outcome) in zip(batch, played) {
                    if outcome.late > Self.tolerance && attempt < 3 {
                        KernelGuest.say("\(recording.testDescription) was played \(Int(outcome.late * 1000)) ms late; again, alone")
                        lateOnes.append(recording)
                        continue
                    }
                    #expect(outcome.late <= Self.tolerance, "\(recording.testDescription): played \(Int(outcome.late * 1000)) ms late")
                    let file = fromFile[recording.events] ?? []
                    // Side by side, four engines share the emulated CPUs: one
                    // that falls behind may read a packet stamped just before a
                    // deadline only after the deadline woke it (a rest that
                    // turns into a long press). Alone, it must match.
                    if outcome.lines != file && size > 1 {
                        KernelGuest.say("\(recording.testDescription) differed side by side; again, alone")
                        lateOnes.append(recording)
                        continue
                    }
                    #expect(outcome.lines == file, "\(recording.testDescription): live \(outcome.lines) but from the file \(file)\n\(outcome.stderr)")
                    if outcome.lines == file { matched += 1 }
                }
            }
            pending = lateOnes
        }
        KernelGuest.say("\(matched) of \(recordings.count) recordings give live what they give from their files")
    }

    /// Plays the recordings side by side, each into its own device read by its
    /// own engine: what each engine emitted, and how late its latest packet was.
    static func playLive(_ batch: [RealRecording], rules: String) throws -> [(lines: [String], late: Double, stderr: String)] {
        KernelGuest.say("playing \(batch.map(\.testDescription).joined(separator: ", "))")
        let devices = try EvemuDevice.make(batch.map { $0.descriptionFile ?? $0.events })
        let engines = try devices.map { try KernelGuest.gesturemap(["run", "-v", "--rules", rules, $0.node]) }
        defer { for engine in engines { _ = engine.terminate() } }
        for (engine, device) in zip(engines, devices) {
            #expect(engine.wait(upTo: 30) { _, err in err.contains("reading \(device.node)") }, "\(engine.stderr)")
        }
        let plays = try zip(batch, devices).map { recording, device in
            (player: EventPlayer(evemu: try String(contentsOfFile: recording.events, encoding: .utf8)), node: device.node)
        }
        let late = try EventPlayer.playTogether(plays)
        // Deadlines still to come (a tap waiting for a second), then the
        // unplug ends touches still down, as the end of a file does.
        usleep(1_200_000)
        for device in devices { device.remove() }
        for (engine, device) in zip(engines, devices) {
            #expect(engine.wait(upTo: 20) { _, err in err.contains("\(device.node) was unplugged") }, "\(engine.stderr)")
        }
        usleep(300_000)
        return zip(engines, late).map { engine, late in
            _ = engine.terminate()
            return (engine.outputLines.map(withoutTime), late, engine.stderr)
        }
    }
}

/// A gesture line without its time, which live is the kernel's clock.
private func withoutTime(_ line: String) -> String {
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
