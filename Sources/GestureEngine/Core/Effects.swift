import GestureActions
import GestureCore

/// What the rules' actions reach besides stdout: the programs they start, the
/// virtual keyboard key() types on (made at start, or at first use), and the
/// virtual pointer and touchpad.
struct Effects {
    /// Where the actions go: the system, or `--dry-run`'s lines.
    let sink: any ActionSink
    let launcher = ProcessLauncher()
    var keyboard: VirtualKeyboard?
    var pointer = PointerEffects()
    /// Packets for the virtual devices that wait for their moment on the wall clock.
    var agenda = PacketAgenda()
    /// The loop serves the agenda (a live run, or a paced replay); otherwise
    /// packets go out at once, as a replay's time does not pass on the wall.
    var defersOnLoop = false
    /// A packet that could not be queued, or went out late and failed, was said.
    var agendaTroubleSaid = false
}

/// The virtual pointer and touchpad, and what the rules hold down on them.
struct PointerEffects {
    var pointerDevice: VirtualPointingDevice?
    var touchpadDevice: VirtualPointingDevice?
    var packets = PointerPackets()
    var touchpad = TouchpadPackets()
    var buttons = HeldButtons() {
        didSet { lingerDue = buttons.nextDue }
    }
    /// Whose fingers are on the virtual touchpad.
    var touchpadOwner: ActionOwner?
    /// The handler running now: what a press or a landing belongs to.
    var owner = ActionOwner.outside
    /// When the first lingering button goes up; kept, as every frame asks.
    private(set) var lingerDue: Double?
    /// When each button last went up, or will (monotonic): its next press waits 30 ms after.
    var lastRelease: [PointerButton: Double] = [:]

    /// Nothing is down on either device.
    var isIdle: Bool { buttons.isEmpty && touchpadOwner == nil }
}
