import GestureCore

/// Everything the engine keeps for one device index of a run, in one place:
/// what the device is called, whether it is a touchpad, its recognizer core,
/// its share with the desktop, and what typing leaves out of it. (libinput
/// keeps one `evdev_device` for each device in the same way.) The input it
/// is read from stays with the loop's source for it, which reads it.
final class DeviceLane {
    /// The name the input was given by: on the command line, or a phone's address.
    var inputName: String?
    /// The name a device or header line gave it, as far as the frames handled so far.
    var deviceName: String?
    /// A touchpad: typing quiets it.
    var isTouchpad = false
    /// Its recognizer core, made at its first frame; boxed, so the per-frame
    /// path reads and changes it where it lies (an optional struct here was
    /// copied out and back on every access: 3% more instructions a frame).
    var core: ArenaBox?
    /// Told once that edge swipes need a surface size.
    var edgesExplained = false
    /// Shared with the desktop, while it is.
    var share: DeviceShare?
    /// A shared mouse's stroke a rule takes, run once the gate has claimed it.
    var claimedStroke: Delivery?
    /// A recorded mouse's gate, made at its first event.
    var recordedMouse: RecordedMouse?
    /// Whether a claiming rule could still take the touches down.
    var claims = ClaimWatch.idle
    /// The touches typing leaves out of a touchpad.
    var typingFilter = TypingFilter()
    /// Touches are being left out now.
    var ignoringTyping = false

    /// What `g.device` says.
    var name: String? { deviceName ?? inputName }
}

/// The lanes of a run, by device index, and the keyboards read beside them.
/// A value in the engine, so the per-frame path reads its array where it lies.
struct DeviceLanes {
    private(set) var all: [DeviceLane?] = []
    /// The keyboards: the keys held, and quiet while typing (what typing leaves
    /// out of each touchpad is kept in its lane); nil when none is read.
    var keyboards: KeyInputs?
    /// Lanes with a share: asked on every frame, so kept rather than counted.
    private(set) var shared: [DeviceLane] = []

    /// The lane of `device`, or nil when nothing was kept for it yet.
    @inline(__always)
    func lane(_ device: Int) -> DeviceLane? {
        device >= 0 && device < all.count ? all[device] : nil
    }

    /// The lane of `device`, made when there was none.
    mutating func make(_ device: Int) -> DeviceLane {
        if let lane = lane(device) { return lane }
        if device >= all.count { all.append(contentsOf: repeatElement(nil, count: device - all.count + 1)) }
        let lane = DeviceLane()
        all[device] = lane
        return lane
    }

    /// What `g.device` says for `device`.
    func name(of device: Int) -> String? { lane(device)?.name }

    /// Starts or ends a device's share.
    mutating func setShare(_ share: DeviceShare?, for device: Int) {
        let lane = make(device)
        lane.share = share
        lane.claimedStroke = nil
        lane.claims = .idle
        shared = all.compactMap { $0?.share == nil ? nil : $0 }
    }

    /// Every share ended.
    mutating func endShares() {
        for lane in shared {
            lane.share = nil
            lane.claims = .idle
        }
        shared = []
    }

    /// The shares' clones: devices that appear and are not to be read.
    var cloneNodes: Set<String> { Set(shared.compactMap { $0.share?.node }) }
}

/// A device's recognizer core, held by reference.
final class ArenaBox {
    var arena: GestureArena

    init(_ arena: GestureArena) {
        self.arena = arena
    }
}
