import GestureActions
import GestureCore
import GestureInput

extension Engine {
    /// `--share`, or `config{ share = true }`: touch devices are shared.
    var sharing: Bool { options.deviceUse == .share || runtime.thresholds.isOn(.share) }

    /// `--share-mouse`, or `config{ share_mice = true }`: mice are shared.
    var sharingMice: Bool { options.shareMice || runtime.thresholds.isOn(.shareMice) }

    /// Whether a live device of this kind is shared when it is opened.
    func shares(_ device: InputDevice) -> Bool {
        !state.sharingSuspended && (device.isMouse ? sharingMice : sharing)
    }

    /// The settings of a share's gate, as the rules are now.
    func gateSettings(for share: DeviceShare) -> ShareSettings {
        share.isMouse ? .mouse(mouseSettings(udev: share.udevEntry, description: share.description).settings) : .touch(shareSettings(for: share.description))
    }

    /// What the rules claim, for a device of this description.
    func shareSettings(for description: EvdevDescription) -> ShareGate.Settings {
        let claim = Int(exactly: runtime.thresholds[.claimFingers].rounded()) ?? 0
        // A claiming rule's finger count waits for the recognizers; one for any count, every count.
        var pending: Set<Int> = []
        for rule in runtime.coreRules(forDevice: description.name) where rule.claims && rule.isActive && !rule.spec.isMouse {
            switch rule.spec.fingers {
            case .exactly(let n): pending.insert(n)
            case .any: pending.formUnion(1...10)
            }
        }
        var settings = ShareGate.Settings(claimFingers: claim > 0 ? claim : nil, pendingFingers: pending)
        // 1.5 mm of motion is a pointer's, not fingers still landing.
        let info = description.deviceInfo
        settings.releaseDistance = (Self.units(1.5, axis: info.x), Self.units(1.5, axis: info.y))
        return settings
    }

    /// Millimetres in an axis's units; without a resolution, a hundredth of its range.
    private static func units(_ millimetres: Double, axis: AxisInfo) -> Int32 {
        if let resolution = axis.resolution, resolution > 0 { return Int32(clamping: Int((millimetres * resolution).rounded(.up))) }
        if let maximum = axis.maximum, maximum > axis.minimum { return Int32(clamping: max(1, Int(((maximum - axis.minimum) / 100).rounded(.up)))) }
        return 16
    }

    /// Shares the source's live device when asked: false (said why) when it cannot be.
    func shareIfAsked(_ source: Source) -> Bool {
        guard let device = source.device, shares(device) else { return true }
        let settings: ShareSettings
        // A mouse's udev entry (MOUSE_DPI), read once and kept by its share.
        let udev = device.isMouse ? UdevDatabase().entry(ofNode: device.path) : nil
        if device.isMouse {
            let mouse = mouseSettings(udev: udev, description: device.description)
            if let problem = mouse.problem { console.note("\(source.name): \(problem)") }
            settings = .mouse(mouse.settings)
        } else {
            settings = .touch(shareSettings(for: device.description))
        }
        do {
            let share = try DeviceShare(device: device, uinput: UinputDevice.path, settings: settings)
            share.udevEntry = udev
            guard share.start() else {
                console.note("cannot share \(source.name): the system would not make a thread for it")
                return false
            }
            lanes.setShare(share, for: source.index)
            tellMiceModifiers()
            // A mouse's records reach no decoder, which names a touch device: g.device and rules' `device` need its name.
            if device.isMouse { lanes.make(source.index).deviceName = device.description.name }
            if options.verbose {
                console.note("sharing \(source.name) with the desktop through \(share.node ?? "a clone whose node the kernel did not name")")
            }
            return true
        } catch {
            console.note(error.message)
            return false
        }
    }

    /// Sharing ends (the device went, or the escape): its thread and clone go.
    func unshare(_ source: Source) {
        lanes.lane(source.index)?.share?.stop()
        lanes.setShare(nil, for: source.index)
    }

    /// The run ends before its inputs: every share's thread and clone go.
    func stopSharing() {
        for lane in lanes.shared { lane.share?.stop() }
        lanes.endShares()
    }

    /// A claiming rule's gesture began: its touches are gesturemap's.
    func claimIfClaiming(_ delivery: Delivery, device: Int) {
        guard let lane = lanes.lane(device), let share = lane.share, let rules = lane.core?.arena.rules,
              rules.indices.contains(delivery.rule.index), rules[delivery.rule.index].claims else { return }
        share.claim()
    }

    /// When no claiming rule can take the touches down any more, the desktop
    /// gets them (`release` does nothing to a sequence not held for the
    /// recognizers), once a sequence (`ClaimWatch`).
    func settleClaims(device: Int) {
        guard let lane = lanes.lane(device), let share = lane.share, let arena = lane.core?.arena else { return }
        if lane.claims.judge(sequence: arena.tracker.sequence, claimMayStillFire: arena.claimMayStillFire) { share.release() }
    }

    /// What the gate said about a shared device's touches.
    func shareSaid(_ signals: [ShareSignal], by source: Source) {
        for signal in signals {
            switch signal {
            case .mouse(let said):
                mouseSaid(said, by: source)
            case .touch(.claimed(let fingers)):
                if options.verbose { console.note("\(source.name): a \(fingers)-finger touch is gesturemap's; the desktop sees none of it") }
            case .touch(.escape):
                console.note("\(source.name): five fingers held still for 3 s: stopped sharing it; the desktop reads it directly again (restart gesturemap to share it again)")
            }
        }
    }
}
