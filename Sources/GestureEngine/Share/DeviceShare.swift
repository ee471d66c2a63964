import GestureInput
import GestureSystem

/// One live device shared with the desktop, as the engine holds it:
/// gesturemap holds the device (grabbed) and the desktop reads its clone. A
/// thread of its own runs the device's `ShareWorker`; the engine reaches it
/// only through the `ShareExchange` (commands in, deliveries out), so nothing
/// here is touched by two threads.
final class DeviceShare {
    let path: String
    let description: EvdevDescription
    /// The clone's /dev/input/eventN.
    let node: String?
    /// A mouse: its records are for no touch decoder, its signals are strokes.
    let isMouse: Bool
    /// udev's entry for a mouse (its `MOUSE_DPI`), as read when it was
    /// shared: the gate's settings are made again at every held key's change,
    /// and udev's database is not read again for them.
    var udevEntry: UdevDatabase.Entry?

    private let exchange: ShareExchange
    /// Until `start()`, which hands it to the thread.
    private var worker: ShareWorker?
    private var thread: SystemThread?

    /// A share of the live `device`, with its clone made through `uinput`:
    /// a mouse's through a `MouseShareGate`, a touch device's through a `ShareGate`.
    convenience init(device: InputDevice, uinput: String, settings: ShareSettings) throws(UinputAccessError) {
        let clone = try DeviceClone(of: device, uinput: uinput)
        let gate: any DeviceGate
        switch settings {
        case .touch(let s): gate = ShareGate(settings: s, state: device.currentState())
        case .mouse(let s): gate = MouseShareGate(settings: s, state: device.currentState())
        }
        try self.init(reading: device, path: device.path, description: device.description, clone: clone, node: clone.node, gate: gate)
    }

    /// A share of any device and clone: what the tests drive through a pipe.
    init(reading device: any SharedDevice, path: String, description: EvdevDescription, clone: any CloneWriter, node: String?,
         gate: any DeviceGate, capacity: Int = ShareMailbox.capacity) throws(UinputAccessError) {
        guard let exchange = ShareExchange(capacity: capacity) else { throw .failed(.share(device: path), uinput: UinputDevice.path, reason: "no pipe for its thread") }
        self.path = path
        self.description = description
        self.node = node
        self.exchange = exchange
        isMouse = gate is MouseShareGate
        worker = ShareWorker(device: device, clone: clone, gate: gate, exchange: exchange)
    }

    /// The engine's loop polls it: the thread has something for `take()`.
    var wakeDescriptor: Int32 { exchange.engineWake.fd }

    /// Starts the thread; false when none could be made.
    func start() -> Bool {
        guard let worker, let made = SystemThread({ worker.run() }) else { return false }
        self.worker = nil
        thread = made
        return true
    }

    /// A claimed rule recognized the sequence on this device.
    func claim() { exchange.send(.claim) }
    /// The recognizers decided the pending sequence is none of the claimed ones.
    func release() { exchange.send(.release) }
    func update(_ settings: ShareSettings) { exchange.send(.update(settings)) }

    /// The modifiers this mouse's gate was last told.
    private var toldModifiers: UInt8?

    /// The keyboards' modifiers held now, for a mouse's gate; said only when
    /// they changed (true then).
    @discardableResult
    func holdModifiers(_ modifiers: UInt8) -> Bool {
        guard isMouse, modifiers != toldModifiers else { return false }
        toldModifiers = modifiers
        exchange.send(.modifiers(modifiers))
        return true
    }

    /// Ends sharing and waits for the thread: the clone is gone, nothing left down on it.
    func stop() {
        exchange.send(.stop)
        thread?.join()
        thread = nil
    }

    /// What the thread has for the engine.
    func take() -> ShareDelivery { exchange.take() }

    /// Where the records' mailbox stands (`ShareExchange.flow`).
    var flow: ShareMailbox.Flow { exchange.flow }
}
