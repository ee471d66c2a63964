/// Repairs a decoder made, each kind reported once per stream, in the order
/// they first happened: a stream with the same fault on every line says so once.
public struct OnceReporter<Kind: Hashable & Sendable>: Sendable {
    private var reported: Set<Kind> = []
    private var pending: [Kind] = []

    public init() {}

    /// Notes `kind`; true when this is its first time.
    @discardableResult
    public mutating func note(_ kind: Kind) -> Bool {
        guard reported.insert(kind).inserted else { return false }
        pending.append(kind)
        return true
    }

    /// Kinds noted for the first time since the last call.
    public mutating func take() -> [Kind] {
        guard !pending.isEmpty else { return [] }
        defer { pending.removeAll() }
        return pending
    }

    public func hasReported(_ kind: Kind) -> Bool { reported.contains(kind) }
}
