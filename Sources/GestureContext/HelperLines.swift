/// A focus helper's output cut into lines, where each whole line replaces the
/// one before. A line longer than any application id is no id: it is skipped
/// to its newline, so that its tail is never taken for one.
struct HelperLines {
    /// Longer than any id and title a window system allows.
    static let longest = 64 << 10

    private enum State {
        case collecting([UInt8])
        /// Inside a line past `longest`, until its newline.
        case skipping
    }
    private var state = State.collecting([])

    /// What a chunk of output gave.
    struct Fed: Equatable {
        /// The last whole line that was not too long, if any.
        var line: String?
        /// Whether a line past `longest` began or ended in it.
        var overlong = false
    }

    mutating func feed(_ chunk: ArraySlice<UInt8>) -> Fed {
        var fed = Fed()
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            switch state {
            case .skipping:
                fed.overlong = true
            case .collecting(let pending):
                if pending.count + (newline - start) > HelperLines.longest {
                    fed.overlong = true
                } else {
                    fed.line = String(decoding: pending + chunk[start..<newline], as: UTF8.self)
                }
            }
            state = .collecting([])
            start = newline + 1
        }
        if case .collecting(let pending) = state, start < chunk.endIndex {
            if pending.count + (chunk.endIndex - start) > HelperLines.longest {
                state = .skipping
                fed.overlong = true
            } else {
                state = .collecting(pending + chunk[start...])
            }
        }
        return fed
    }

    /// At the end of the output: a last line without its newline, if any.
    mutating func finish() -> String? {
        defer { state = .collecting([]) }
        guard case .collecting(let pending) = state, !pending.isEmpty else { return nil }
        return String(decoding: pending, as: UTF8.self)
    }
}
