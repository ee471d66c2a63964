import Glibc
import GestureCore
import GestureInput

/// The device directory, watched: a live input that comes back is read
/// again, a touch device that appears is read when the run looks for them,
/// and a keyboard that appears is read for held keys.
final class HotplugSource: LoopSource {
    private unowned let session: Session
    private let watcher: HotplugWatcher
    /// The run looks for touch devices (none was named).
    private let discovering: Bool

    init(session: Session, watcher: HotplugWatcher, discovering: Bool) {
        self.session = session
        self.watcher = watcher
        self.discovering = discovering
    }

    /// While devices may yet come: the run looks for them, or a live one may come back.
    var keepsLoopRunning: Bool { discovering || session.inputs.contains { $0.source.isLiveDevice } }

    func descriptors(into list: inout [PollRequest]) {
        list.append(PollRequest(fd: watcher.fd, events: Int16(POLLIN)))
    }

    func serve(_ round: LoopRound) {
        guard !round.ready.isEmpty else { return }
        let engine = session.engine
        for path in watcher.changedNodes() where !engine.lanes.cloneNodes.contains(path) {
            if let returning = session.inputs.first(where: { $0.source.path == path && !$0.source.isOpen && $0.source.isLiveDevice }) {
                returning.reopen(at: path)
            } else if discovering, !session.inputs.contains(where: { $0.source.path == path }),
                      case .success(let added) = openDiscovered(path, index: session.inputs.count) {
                session.add(input: added)
            } else if !session.inputs.contains(where: { $0.source.path == path }), engine.options.keyboards.isEmpty,
                      let keys = engine.lanes.keyboards, keys.addDevice(path), engine.options.verbose {
                engine.console.note("found keyboard \(path)")
            }
        }
    }

    private func openDiscovered(_ path: String, index: Int) -> Result<Source, ExitCode> {
        let engine = session.engine
        guard let device = try? InputDevice(path: path) else { return .failure(.unavailable) }
        let touch = device.isTouch && !DeviceScanner.isOwnTouchpad(path, device)
        let mouse = device.isMouse && engine.sharingMice && !DeviceScanner.isOwnPointer(path, device)
        guard touch || mouse else { return .failure(.unavailable) }
        // A clone of a device this run shares, even one whose node the kernel did not name.
        if DeviceScanner.isVirtual(path), engine.lanes.shared.contains(where: { $0.share?.description.name == device.description.name }) {
            return .failure(.unavailable)
        }
        let opened = engine.openSource(path, index: index)
        if case .success = opened { engine.console.note("found \(path) (\(device.description.name.map(TerminalText.escaped) ?? "unnamed"))") }
        return opened
    }
}
