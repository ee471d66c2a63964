import Foundation
import Glibc
@testable import GestureEngine
import GestureCore
import GestureInput
import Synchronization
import Testing

/// What a shared mouse's thread adds to a packet on this machine, for
/// scripts/bench-mouse-share (never a timed test: it runs only when that script
/// asks). Packets of unclaimed motion go into a pipe at 1000 Hz; the time from
/// writing each to its arrival at the clone's writer is measured twice in the
/// same run: through gesturemap's share thread and gate (a stroke rule bound
/// on the right button, so the gate is watching), and through a bare thread
/// that only polls, reads and stamps, the least any forwarder does. The kernel's
/// part (uinput, evdev's clients) is the same for both and is not here: the
/// kernel suite's bench measures the whole path in a guest.
@Suite("Bench: a shared mouse's thread on this machine",
       .enabled(if: ProcessInfo.processInfo.environment["GESTUREMAP_BENCH_MOUSE_SHARE"] != nil, "scripts/bench-mouse-share runs it"))
struct MouseShareLatencyBench {
    /// CLOCK_MONOTONIC, seconds.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Arrival times, written on one thread and read on another.
    final class Stamps: Sendable {
        let times = Mutex<[Double]>([])
        func add(_ count: Int = 1) {
            let now = MouseShareLatencyBench.now()
            times.withLock { for _ in 0..<count { $0.append(now) } }
        }
    }

    /// Stamps each packet as it is written to the clone.
    final class TimingClone: CloneWriter {
        let stamps = Stamps()

        func write(_ events: [EvdevEvent]) throws(UinputAccessError) {
            stamps.add(events.filter { $0.type == EV.syn && $0.code == SYN.report }.count)
        }
    }

    static let packets = 4000
    static let interval = 0.001

    /// What is sent: each packet's events, and the pause after it.
    typealias Script = [(events: [(UInt16, UInt16, Int32)], pause: Double)]

    /// Unclaimed motion, a packet a millisecond.
    static let motion: Script = (0..<packets).map { i in ([(EV.rel, REL.x, i % 2 == 0 ? 1 : -1)], interval) }

    /// Right clicks held 40 ms, 60 ms apart, with a stroke rule on the right
    /// button: each press is held by the gate until its release.
    static let clicks: Script = (0..<200).flatMap { _ -> Script in
        [(events: [(EV.key, BTN.right, Int32(1))], pause: 0.04), (events: [(EV.key, BTN.right, Int32(0))], pause: 0.06)]
    }

    /// Sends the script; the send time of each packet.
    static func send(_ script: Script, to device: PipeDevice) -> [Double] {
        var sent: [Double] = []
        sent.reserveCapacity(script.count)
        var next = now()
        for (events, pause) in script {
            let at = now()
            sent.append(at)
            device.send((events + [(EV.syn, SYN.report, 0)]).map { EvdevEvent(time: at, type: $0.0, code: $0.1, value: $0.2) })
            next += pause
            let wait = min(pause, max(0, next - now()))
            var rest = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))  // ok: 0 to 0.1 s
            nanosleep(&rest, nil)
        }
        return sent
    }

    static func waitFor(_ count: Int, in stamps: Stamps) -> [Double] {
        let deadline = now() + 10
        while now() < deadline {
            let got = stamps.times.withLock { $0 }
            if got.count >= count { return got }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        return stamps.times.withLock { $0 }
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]  // ok: index within the array
    }

    /// Through gesturemap's share thread and mouse gate.
    static func throughShare(_ script: Script) throws -> [Double] {
        let device = PipeDevice(time: 0)
        let clone = TimingClone()
        let share = try DeviceShare(reading: device, path: "pipe", description: EvdevDescription(name: "bench mouse"), clone: clone, node: nil,
                                    gate: MouseShareGate(settings: MouseStrokeGate.Settings(strokeButtons: [BTN.right])))
        guard share.start() else { return [] }
        defer { share.stop() }
        let sent = send(script, to: device)
        let got = waitFor(script.count, in: clone.stamps)
        return zip(sent, got).map { $1 - $0 }
    }

    /// Through a thread that polls, reads and stamps: the bare minimum.
    static func throughBareThread(_ script: Script) -> [Double] {
        let device = PipeDevice(time: 0)
        let fd = device.fd
        let stamps = Stamps()
        let stop = Stamps()
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            while stop.times.withLock({ $0.isEmpty }) {
                guard poll(&fds, 1, 50) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                // Two records a packet: the motion or button, and its SYN_REPORT.
                if n > 0 { stamps.add(n / 48) }
            }
        }
        thread.start()
        let sent = send(script, to: device)
        let got = waitFor(script.count, in: stamps)
        stop.add()
        return zip(sent, got).map { $1 - $0 }
    }

    static func report(_ what: String, bare: [Double], share: [Double]) {
        func ms(_ v: Double) -> String { String(format: "%.3f", v * 1000) }
        let b50 = percentile(bare, 0.5), b99 = percentile(bare, 0.99)
        let s50 = percentile(share, 0.5), s99 = percentile(share, 0.99)
        print("mouse-share-bench: \(what): bare thread p50 \(ms(b50)) ms, p99 \(ms(b99)) ms; "
              + "share thread p50 \(ms(s50)) ms, p99 \(ms(s99)) ms; added p50 \(ms(s50 - b50)) ms, p99 \(ms(s99 - b99)) ms")
    }

    @Test("unclaimed motion at 1000 Hz, and a plain right click's release with a stroke rule on the right button: p50 and p99 through the share thread against a bare thread")
    func latency() throws {
        let bare = Self.throughBareThread(Self.motion)
        let share = try Self.throughShare(Self.motion)
        #expect(bare.count == Self.motion.count && share.count == Self.motion.count)
        Self.report("\(Self.packets) packets of motion at \(Int(1 / Self.interval)) Hz", bare: bare, share: share)
        // The releases: every second packet.
        let releases = { (all: [Double]) in all.enumerated().filter { $0.offset % 2 == 1 }.map(\.element) }
        let bareClicks = Self.throughBareThread(Self.clicks)
        let shareClicks = try Self.throughShare(Self.clicks)
        #expect(bareClicks.count == Self.clicks.count && shareClicks.count == Self.clicks.count)
        Self.report("\(Self.clicks.count / 2) right clicks, from the release", bare: releases(bareClicks), share: releases(shareClicks))
    }
}
