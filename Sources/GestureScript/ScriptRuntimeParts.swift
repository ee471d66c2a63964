import GestureCore

/// What the handler or timer running now is for: its input time, its event,
/// where it was defined.
struct CurrentCall {
    /// The input time of what is being handled, for `emit`'s `t` and timers.
    var time = 0.0
    /// The input's clock has given a time; timers made before it count from it.
    var clockStarted = false
    /// The event a handler is running for, for `exec`: it points at `call`'s
    /// own, during the call only, as copying the event (193 bytes, its strings
    /// retained) into here and out again was a measurable part of every call.
    var event: UnsafePointer<GestureEvent>?
    /// Where the running handler or timer was defined: messages fall back to it
    /// when no Lua line is on the stack (a host function given as the handler).
    var origin: String?
    /// `emit`'s line, kept between calls for its storage.
    var emitWriter = JSONWriter()
}

/// `after` and `every`: the timers waiting, and what one input instant of
/// them has cost.
struct TimerState {
    var queue = TimerQueue() { didSet { pending = queue.count > 0 } }
    /// Whether any timer waits, kept as the queue changes: asked every frame.
    private(set) var pending = false
    var nextID = 1
    var instant = TimerInstant()
    /// A limit held the timers back, and it was said: once a run.
    var holdReported = false
    /// The pointer budget was exceeded and said so: once a run.
    var pointerBudgetReported = false
    /// Where timers were made, one copy of each.
    var origins: Set<String> = []
}

/// What loading the rules files found and made.
struct LoadRecord {
    /// Whether the state is still loading the rules file.
    var loading = false
    /// Problems found while loading, each `file:line: message`; any of them fails the load.
    var problems: [String] = []
    var problemsLeftOut = 0
    /// Doubtful but legal things (a rule shadowed by another): `check` fails on them, `run` only says them.
    var warnings: [String] = []
    var chunkNames = ChunkNames()
    /// The rules file's directory, where `require` looks.
    var moduleDirectory = "."
    /// Every file the rules came from (the rules file and required modules), for reload.
    var sourceFiles: [String] = []
    /// Bytes of host structures charged to the memory limit, given back at the end.
    var charged = 0
}
