#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ctrl-C for commands that run until stopped (`record` from a device): the
/// handler only sets a flag; the loop notices it and finishes the file cleanly.
enum Interrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        signal(SIGINT) { _ in Interrupt.flag = 1 }
        signal(SIGTERM) { _ in Interrupt.flag = 1 }
    }
}
