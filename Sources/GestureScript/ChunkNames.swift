/// Lua shortens a long file name in messages to "..." and its last 56 or so
/// characters. People need the whole path to find the file, so messages get it back.
struct ChunkNames {
    private(set) var paths: [String] = []

    mutating func add(_ path: String) {
        if !paths.contains(path) { paths.append(path) }
    }

    func restore(_ message: String) -> String {
        guard message.contains("..."), !paths.isEmpty else { return message }
        var result = ""
        var rest = Substring(message)
        while let range = rest.firstRange(of: "...") {
            result += rest[..<range.lowerBound]
            let after = rest[range.upperBound...]
            let tail = after.prefix { $0 != ":" && $0 != "\n" }
            if tail.count >= 8, let full = paths.first(where: { $0.hasSuffix(tail) && $0.count > tail.count }) {
                result += full
                rest = after[tail.endIndex...]
            } else {
                result += "..."
                rest = after
            }
        }
        return result + rest
    }
}
