/// The escape chord: sharing suspended (every shared device let go, its clone
/// gone with nothing left down, the device read beside the desktop) until it
/// is pressed again, which grabs and shares them anew. A broken rules file or
/// a stuck claim never leaves a user without a touchpad.
extension Session {
    func escapeChordPressed() {
        guard engine.sharing || engine.sharingMice else { return }
        if engine.state.sharingSuspended {
            resumeSharing()
        } else {
            suspendSharing()
        }
    }

    private func suspendSharing() {
        engine.state.sharingSuspended = true
        for input in inputs where input.source.isOpen && engine.lanes.lane(input.source.index)?.share != nil {
            engine.unshare(input.source)
            input.source.device?.ungrab()
        }
        engine.console.note("\(EscapeChord.name): sharing suspended; the desktop reads every device directly, gestures included, until \(EscapeChord.name) is pressed again")
    }

    private func resumeSharing() {
        engine.state.sharingSuspended = false
        var shared = 0
        for input in inputs where input.source.isOpen && engine.lanes.lane(input.source.index)?.share == nil {
            guard let device = input.source.device else { continue }
            do {
                try device.grab()
            } catch {
                engine.console.note("cannot share \(input.source.name) again: \(error.message)")
                continue
            }
            if engine.shareIfAsked(input.source) {
                shared += 1
            } else {
                device.ungrab()
            }
        }
        engine.console.note("\(EscapeChord.name): sharing resumed (\(shared) device\(shared == 1 ? "" : "s")); press it again to suspend it")
    }
}
