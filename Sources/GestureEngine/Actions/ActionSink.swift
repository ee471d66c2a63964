import GestureActions
import GestureCore
import GestureScript

/// Where the rules' actions end up, chosen once when a run starts: the system
/// itself (`SystemActions`: programs, and the virtual keyboard, pointer and
/// touchpad through uinput) or, with `--dry-run`, JSON lines on stdout that
/// say what would have been done (`DryRunActions`). Everything before it (which
/// rule, which gesture, what is held down and by whom) is the same for both.
protocol ActionSink: Sendable {
    /// Whether the run makes virtual devices (at start, for rules that use them).
    var makesDevices: Bool { get }
    func exec(_ request: ExecRequest, in engine: Engine) throws(HostActionError)
    func key(_ keys: KeyCombo, combo: String, origin: String, in engine: Engine) throws(HostActionError)
    /// A packet for the virtual pointer or touchpad: from a rule (`origin`
    /// names its call), or from the engine itself (nil: a release or a lift
    /// that undoes what a rule left down, which nobody is told of when it
    /// fails). True when it went out or waits its turn.
    func send(_ events: [VirtualEvent], to target: PacketAgenda.Target, origin: String?,
              button: (PointerButton, down: Bool)?, always: Bool, in engine: Engine) throws(HostActionError) -> Bool
}

extension Engine {
    /// Chosen from the options when the engine is made.
    var sink: any ActionSink { effects.sink }
}
