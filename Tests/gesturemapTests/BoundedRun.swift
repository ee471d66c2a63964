#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureSystem

/// Runs the built binary with its output in files, and waits on its exit
/// itself (a pidfd), killing it after `killAfter` seconds: unlike
/// Foundation's Process, which learns of the end through a descriptor every
/// child inherits, nothing the binary leaves running can hold the wait up.
enum BoundedRun {
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null",
                    killAfter: Double) throws -> (result: Binary.Result, hung: Bool) {
        let folder = try Binary.temporaryDirectory()
        let outPath = folder.appendingPathComponent("stdout").path, errPath = folder.appendingPathComponent("stderr").path
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([Binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        let child = ChildProcess(pid: pid)
        let hung = !child.wait(until: MonotonicClock.now() + killAfter)
        if hung {
            kill(pid, SIGKILL)
            child.wait(until: .infinity)
        }
        let status = child.exitCode ?? 128 + ((child.status ?? 0) & 0x7f)
        let text = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return (Binary.Result(status: status, stdout: text(outPath), stderr: text(errPath)), hung)
    }
}
