/// Which limit stopped a call into Lua, and where: "rules.lua:12: instruction limit exceeded".
struct LimitStop: Equatable, CustomStringConvertible {
    enum Limit {
        case instructions
        /// The call's CPU time.
        case time
    }

    var limit: Limit
    /// The Lua line it stopped on, else the origin of what was running; nil when neither is known.
    var place: String?

    init(limit: Limit, place: String?) {
        self.limit = limit
        self.place = place
    }

    /// The C side's text, "PLACE: WORDS" or "WORDS"; nil when it is neither.
    init?(limit: Limit, written: String) {
        self.limit = limit
        let words = Self.words(limit)
        guard written.hasSuffix(words) else { return nil }
        let before = written.dropLast(words.count)
        if before.isEmpty {
            place = nil
        } else {
            guard before.hasSuffix(": ") else { return nil }
            place = String(before.dropLast(2))
        }
    }

    var description: String {
        let words = Self.words(limit)
        return place.map { "\($0): \(words)" } ?? words
    }

    private static func words(_ limit: Limit) -> String {
        limit == .time ? "time limit exceeded" : "instruction limit exceeded"
    }
}
