import GestureActions

extension Engine {
    /// Every line for stdout goes through here: the first one that cannot be
    /// written ends the run (docs/architecture.md: exit 74; a reader gone is a quiet stop).
    func write(line: String) {
        output.write(line: line)
        noticeOutputFailure()
    }

    func write(utf8 line: UnsafeBufferPointer<UInt8>) {
        output.write(line: line)
        noticeOutputFailure()
    }

    /// Between writes: a pipe whose reader left says so when polled, so a run
    /// that is not emitting anything still stops.
    func checkOutputReader() {
        output.checkReader()
        noticeOutputFailure()
    }

    /// A replay read as fast as the files allow: lines wait for the end of the
    /// chunk that made them (a write each cost more than handling them), and
    /// go out before any message, so stdout and stderr keep their order.
    func holdOutput() {
        output.holdLines(true)
        console.beforeMessage = { [output] in output.flush() }
    }

    func releaseOutput() {
        console.beforeMessage = nil
        output.holdLines(false)
        noticeOutputFailure()
    }

    private func noticeOutputFailure() {
        guard let failure = output.failure else { return }
        state.end.fail(ExitCode.forOutput(failure, command: "gesturemap", console: console))
    }
}
