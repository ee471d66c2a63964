/// Runs one program to read what it prints: a batch of one (`ProgramBatch`),
/// so the program is killed with all it started at `timeout` seconds,
/// whether or not it still holds its output open.
public enum ProgramOutput {
    public struct Result: Equatable, Sendable {
        /// The exit status, or nil when it was killed or did not exit normally.
        public var status: Int32?
        public var output: String
        /// It had not closed its output and exited by the deadline: its
        /// process group was killed.
        public var timedOut: Bool

        public init(status: Int32?, output: String, timedOut: Bool = false) {
            self.status = status
            self.output = output
            self.timedOut = timedOut
        }
    }

    /// Nil when the program cannot be started (not installed).
    public static func run(_ argv: [String], environment: [String: String]? = nil, timeout: Double = 3, limit: Int = 1 << 20) -> Result? {
        let batch = ProgramBatch(deadline: MonotonicClock.now() + timeout, limit: limit)
        return batch.start(argv, environment: environment).map(batch.result)
    }
}
