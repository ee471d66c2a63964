#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The kernel tests run only inside the guest `scripts/kernel-test` boots:
/// there they make real input devices, which on a desktop would reach the
/// desktop itself.
enum KernelGuest {
    static let isInside = ProcessInfo.processInfo.environment["GESTUREMAP_KERNEL_TEST"] == "1"
        && FileManager.default.fileExists(atPath: "/dev/uinput")
    static let reason: Comment = "needs a real kernel with /dev/uinput: scripts/kernel-test boots one and runs these inside it"

    /// Progress on the guest's console, where a long test shows how far it got.
    static func say(_ text: String) {
        FileHandle.standardError.write(Data(("kernel-test: " + text + "\n").utf8))
    }

    /// Waits until `condition` holds, up to `timeout` seconds.
    @discardableResult
    static func wait(upTo timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Runs a tool to its end, standard input from `input` (a path) or /dev/null;
    /// its status and everything it wrote.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], input: String = "/dev/null", timeout: Double = 120) throws -> (status: Int32, output: String, stdout: String) {
        let child = try Child([tool.hasPrefix("/") ? tool : "/usr/bin/" + tool] + arguments, stdin: input)
        guard let status = child.waitForExit(upTo: timeout) else {
            child.terminate()
            throw KernelTestError("\(tool) \(arguments.joined(separator: " ")) did not end within \(Int(timeout)) s")
        }
        return (status, child.stdout + child.stderr, child.stdout)
    }

    /// `gesturemap ARGUMENTS`, this build's, running until stopped.
    static func gesturemap(_ arguments: [String], environment: [String: String]? = nil, as user: [String] = []) throws -> Child {
        try Child(user + [Binary.path] + arguments, environment: environment)
    }

    /// A process's state letter (R, S, T...), what it waits in, and its open files, for messages.
    static func processState(_ pid: pid_t) -> String {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
        let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "?"
        let syscall = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? "?"
        let fds = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
            .map { "\($0)=" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?") }
        return "\(state) in \(wchan) syscall \(syscall.trimmingCharacters(in: .newlines)) fds \(fds.joined(separator: " "))"
    }

    /// The `/dev/input/event*` node whose device has this name.
    static func node(named name: String) -> String? { nodes(named: name).first }

    /// Every `/dev/input/event*` node whose device has this name.
    static func nodes(named name: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/input") else { return [] }
        return entries.sorted().filter { entry in
            guard entry.hasPrefix("event") else { return false }
            let text = try? String(contentsOfFile: "/sys/class/input/\(entry)/device/name", encoding: .utf8)
            return text?.trimmingCharacters(in: .newlines) == name
        }.map { "/dev/input/" + $0 }
    }
}

struct KernelTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A real input device, made by `evemu-device` from a description (an evemu
/// recording's header, or a `.desc`), until `remove()`.
final class EvemuDevice {
    let node: String
    let name: String
    private let process: Child

    convenience init(description path: String) throws {
        try self.init(started: try Child(["/usr/bin/evemu-device", path]), path: path)
        EvemuDevice.settle()
    }

    /// Several devices, made side by side.
    static func make(_ descriptions: [String]) throws -> [EvemuDevice] {
        let started = try descriptions.map { try Child(["/usr/bin/evemu-device", $0]) }
        let devices = try zip(started, descriptions).map { try EvemuDevice(started: $0, path: $1) }
        settle()
        return devices
    }

    /// Waits for `evemu-device` to say "NAME: /dev/input/eventN", once the device exists.
    private init(started process: Child, path: String) throws {
        self.process = process
        var found: (String, String)?
        process.wait(upTo: 30) { out, _ in
            for line in out.split(separator: "\n") {
                if let range = line.range(of: ": /dev/input/event", options: .backwards) {
                    found = (String(line[..<range.lowerBound]), "/dev/input/event" + line[range.upperBound...])
                }
            }
            return found != nil || !process.isRunning
        }
        guard let found else {
            process.terminate()
            throw KernelTestError("evemu-device \(path) made no device: \(process.stdout)\(process.stderr)")
        }
        name = found.0
        node = found.1
    }

    /// udev has given the devices their properties and permissions.
    static func settle() {
        _ = try? KernelGuest.run("udevadm", ["settle", "--timeout=20"])
    }

    /// Plays a recording into the device at its recorded pace, to its end.
    func play(_ events: String, timeout: Double = 120) throws {
        let result = try KernelGuest.run("evemu-play", [node], input: events, timeout: timeout)
        guard result.status == 0 else { throw KernelTestError("evemu-play \(node) < \(events): \(result.output)") }
    }

    /// Starts playing a recording; the caller waits for or stops it.
    func startPlaying(_ events: String) throws -> Child {
        try Child(["/usr/bin/evemu-play", node], stdin: events)
    }

    /// Unplugs it: the node goes away.
    func remove() {
        guard process.isRunning else { return }
        process.terminate()
        KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: node) }
    }

    deinit { remove() }
}
