import Foundation
import Testing

/// Every real evemu recording, made into a device with `evemu-device` and
/// played into it at its recorded pace, gives live what it gives from its file,
/// and that is what its SOURCE.md states or the miss listed for it
/// (`recordingOutcomes`, which RealRecordingOutcomeTests holds from the files).
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

    @Test("live through the kernel as from the file: the same gestures, in order, for every recording, and what SOURCE.md states or the listed miss")
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
        var stated = (gestures: 0, met: 0, recordings: 0, misses: 0)
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
                    guard let table = recordingOutcomes[recording.testDescription] else {
                        Issue.record("\(recording.testDescription): no stated outcome in recordingOutcomes")
                        continue
                    }
                    let live = outcome.lines.compactMap(StatedGesture.init(line:))
                    #expect(live == table.expected, "\(recording.testDescription): live \(live), SOURCE.md states \(table.stated), listed \(table.expected)")
                    stated.gestures += table.stated.reduce(0) { $0 + $1.count }
                    if live == table.stated {
                        stated.met += table.stated.reduce(0) { $0 + $1.count }
                        stated.recordings += 1
                    } else if live == table.expected {
                        stated.misses += 1
                    }
                }
            }
            pending = lateOnes
        }
        KernelGuest.say("\(matched) of \(recordings.count) recordings give live what they give from their files")
        KernelGuest.say("live: \(stated.met) of \(stated.gestures) stated gestures; \(stated.recordings) of \(recordings.count) recordings give what SOURCE.md states, \(stated.misses) give their listed miss")
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
