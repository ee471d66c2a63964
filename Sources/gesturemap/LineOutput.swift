import GestureActions

enum LineOutput {
    // Only the main thread writes to stdout.
    nonisolated(unsafe) static let standardOutput = LineWriter(fd: 1)
}
