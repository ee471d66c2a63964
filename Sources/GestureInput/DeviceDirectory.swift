/// Names of the devices behind each input, by device index, written by the
/// decoders the moment a header or device line names one, so that a handler
/// running inside the same read already sees it.
// Invariant: `names` is the engine thread's; `journal` is the decoding thread's between beginJournal and endJournal, which run before it starts and after it ends.
public final class DeviceDirectory: @unchecked Sendable {
    // Only the engine's loop thread reads and writes `names`. While a file is
    // decoded ahead on another thread, that thread's decoder writes to
    // `journal` alone, and the engine sets each name when it reaches the
    // frame the name came before.
    private var names: [Int: String] = [:]
    private var journal: [(device: Int, name: String)]?

    public init() {}

    public func name(of device: Int) -> String? { names[device] }

    /// Names wait in the journal: read by the decoding thread after every
    /// frame, so a flag, not the array.
    public private(set) var journalPending = false

    public func set(_ name: String, for device: Int) {
        if journal != nil {
            journal?.append((device, name))
            journalPending = true
        } else {
            names[device] = name
        }
    }

    /// From the engine's thread, while the journal is kept.
    public func apply(_ name: String, for device: Int) { names[device] = name }

    /// Before the decoding thread starts.
    public func beginJournal() { journal = [] }

    /// On the decoding thread: the names set since it last asked.
    public func takeJournal() -> [(device: Int, name: String)] {
        guard journalPending, let entries = journal else { return [] }
        journal = []
        journalPending = false
        return entries
    }

    /// After the decoding thread ended.
    public func endJournal() {
        for (device, name) in journal ?? [] { names[device] = name }
        journal = nil
        journalPending = false
    }
}
