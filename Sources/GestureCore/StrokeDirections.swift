/// How a mouse stroke's arms are written in the rules and in what it reports:
/// "left", "left-up" (an L drawn left, then up), "down-right-up" (a U).
///
/// The four diagonals keep the names they have everywhere else in the rules
/// (`up-left` is a diagonal for a stroke as for a swipe), so a name never
/// means two things: where hyphens would spell a diagonal, or an arm is one,
/// the arms are joined with commas instead (`up,left` is an L drawn up, then
/// left; `right,down-left`). Commas may join any arms (`left,up` is `left-up`).
public enum StrokeDirections {
    /// A stroke has at most this many arms (`MouseStrokeReading.maxArms`).
    public static let maxArms = 4
    static let maxBytes = 128

    /// The canonical spelling of `arms`.
    public static func name(_ arms: [Direction]) -> String {
        let hyphenated = arms.map(\.rawValue).joined(separator: "-")
        let spellsDiagonal = arms.count == 2 && Direction(rawValue: hyphenated)?.isDiagonal == true
        return arms.contains(where: \.isDiagonal) || spellsDiagonal ? arms.map(\.rawValue).joined(separator: ",") : hyphenated
    }

    /// Why a rule's direction is no stroke.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// A rule's `direction` for a stroke: one direction of eight, or arms in order.
    public static func parse(_ text: String) -> Result<[Direction], Problem> {
        let example = "such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"
        guard text.utf8.count <= maxBytes else { return .failure(Problem(description: "a stroke's direction is at most \(maxBytes) bytes, \(example)")) }
        let lowered = text.lowercased().filter { $0 != " " }
        let shownText = TerminalText.escaped(text)
        guard !lowered.isEmpty else { return .failure(Problem(description: "a stroke's direction is empty; leave \"direction\" out for any stroke, or give one \(example)")) }
        var arms: [Direction] = []
        for part in lowered.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { return .failure(Problem(description: "\"\(shownText)\" has an empty arm; join arms with one hyphen or comma, \(example)")) }
            if let diagonal = Direction(rawValue: String(part)), diagonal.isDiagonal {
                arms.append(diagonal)
                continue
            }
            for word in part.split(separator: "-", omittingEmptySubsequences: false) {
                guard let d = Direction(rawValue: String(word)), Direction.swipeDirections.contains(d) else {
                    let shown = word.isEmpty ? "an empty arm" : "\"\(TerminalText.escaped(String(word)))\""
                    let whole = String(word) == lowered ? "" : " in \"\(shownText)\""
                    return .failure(Problem(description: "\(shown)\(whole) is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another, \(example)"))
                }
                arms.append(d)
            }
        }
        guard arms.count <= maxArms else {
            return .failure(Problem(description: "\"\(shownText)\" has \(arms.count) arms; a stroke has at most \(maxArms)"))
        }
        for i in arms.indices.dropFirst() where arms[i] == arms[i - 1] {
            return .failure(Problem(description: "\"\(shownText)\" goes \(arms[i].rawValue) twice in a row, which is one arm; write \"\(arms[i].rawValue)\" once there"))
        }
        return .success(arms)
    }
}
