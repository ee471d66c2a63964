import GestureInput
import GestureSystem

/// What a share's thread reads: the grabbed device, or in a test a pipe of
/// records. Only the share's thread calls it, from the thread's start to its end.
protocol SharedDevice: AnyObject {
    /// Polled for POLLIN: records are waiting, or the device ended.
    var fd: Int32 { get }
    /// The records waiting, as many as fit; `.nothing` when none are.
    func readEvents(into buffer: UnsafeMutableRawBufferPointer) -> InputDevice.ReadOutcome
    /// Its state now, as events: what the engine gets after a drop.
    func currentState() -> [EvdevEvent]
    /// Now, on the clock its events are stamped with.
    func now() -> Double
}

/// Where a share's thread writes what the desktop gets: the clone, or in a
/// test a recorder. Only the share's thread writes it, and lets it go at the end.
protocol CloneWriter: AnyObject {
    /// Whole packets, each ending in SYN_REPORT.
    func write(_ events: [EvdevEvent]) throws(UinputAccessError)
}

extension InputDevice: SharedDevice {
    /// The monotonic clock, or the wall's when the device could not be asked for it.
    func now() -> Double {
        monotonicClock ? MonotonicClock.now() : WallClock.now()
    }
}

extension DeviceClone: CloneWriter {}
