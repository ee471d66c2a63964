/// Why a reload's new rules could not take over the `state` table.
public enum StateAdoptionError: Error, Equatable, CustomStringConvertible {
    /// The copy would pass the memory limit the old and new rules share.
    case noRoom(memoryLimit: Int)
    /// Lua failed the copy; its message.
    case failed(String)

    public var description: String {
        switch self {
        case .noRoom(let limit):
            return "the state table does not fit in Lua's memory next to the running rules (limit \(mebibytes(limit)) for both)"
        case .failed(let message): return message
        }
    }
}
