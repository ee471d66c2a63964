import Glibc

/// The process's peak resident memory: VmHWM of /proc/self/status, the
/// high-water mark of this program's own memory. ru_maxrss, the fallback, is
/// kept across execve: a program started by a large one (a test runner
/// through vfork) reports its parent's size there.
enum PeakMemory {
    static var megabytes: Int {
        if let kilobytes = highWaterMark() { return kilobytes / 1024 }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }

    private static func highWaterMark() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmHWM:") else { continue }
            return Int(text.dropFirst(6).filter(\.isNumber))
        }
        return nil
    }
}
