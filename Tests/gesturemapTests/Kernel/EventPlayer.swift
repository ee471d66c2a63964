#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes an evemu recording's events into a device node at their recorded
/// times, each packet at the start plus its own offset. evemu-play sleeps the
/// gap before each event instead, so under emulation its small delays add up
/// (a recording played 15% long), and a finger resting 0.4 s became a long press.
struct EventPlayer {
    struct Packet {
        var offset: Double
        var bytes: [UInt8]
    }

    let packets: [Packet]

    /// The `E:` lines of evemu text: `E: <sec.usec> <type> <code> <value>`.
    init(evemu text: String) {
        var packets: [Packet] = []
        var first: Double?
        for line in text.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, let time = Double(fields[1]), let type = UInt16(fields[2], radix: 16),
                  let code = UInt16(fields[3], radix: 16), let value = Int32(fields[4].split(separator: "\t")[0]) else { continue }
            let offset = time - (first ?? time)
            if first == nil { first = time }
            var record = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: type.littleEndian) { record += $0 }
            withUnsafeBytes(of: code.littleEndian) { record += $0 }
            withUnsafeBytes(of: value.littleEndian) { record += $0 }
            if let last = packets.last, last.offset == offset {
                packets[packets.count - 1].bytes += record
            } else {
                packets.append(Packet(offset: offset, bytes: record))
            }
        }
        self.packets = packets
    }

    var duration: Double { packets.last?.offset ?? 0 }

    /// Plays into `node` (opened for writing: evdev injects what is written),
    /// returning how late the latest packet was, in seconds. The thread asks
    /// for real-time scheduling (the guest runs as root): with engines busy on
    /// both CPUs, a player put off for 0.3 s turned a resting finger into a
    /// long press.
    func play(into node: String) throws -> Double {
        let fd = open(node, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KernelTestError("\(node): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var priority = sched_param(sched_priority: 10)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority)
        let start = Self.now()
        var late = 0.0
        for packet in packets {
            let due = start + packet.offset
            var wait = due - Self.now()
            while wait > 0 {
                usleep(useconds_t(min(wait, 1) * 1e6))
                wait = due - Self.now()
            }
            late = max(late, -wait)
            let n = packet.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n == packet.bytes.count else { throw KernelTestError("\(node): write: \(String(cString: strerror(errno)))") }
        }
        return late
    }

    /// Plays each recording into its node at once, side by side; how late each
    /// one's latest packet was.
    static func playTogether(_ plays: [(player: EventPlayer, node: String)]) throws -> [Double] {
        let group = DispatchGroup()
        let results = Results(count: plays.count)
        for (i, play) in plays.enumerated() {
            group.enter()
            Thread.detachNewThread {
                results.set(i, Result { try play.player.play(into: play.node) })
                group.leave()
            }
        }
        group.wait()
        return try results.all().map { try $0.get() }
    }

    private final class Results: @unchecked Sendable {
        private var values: [Result<Double, Error>?]
        private let lock = NSLock()
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: Result<Double, Error>) { lock.lock(); values[i] = value; lock.unlock() }
        func all() -> [Result<Double, Error>] { lock.lock(); defer { lock.unlock() }; return values.compactMap { $0 } }
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
