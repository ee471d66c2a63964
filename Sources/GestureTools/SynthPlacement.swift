import GestureEngine
import GestureCore
import GestureSynth

/// Where, when and how often `synth` makes a phrase's gesture: the words
/// `at X,Y`, `after S` and `xN` in the phrase, and the phrase without them.
struct SynthPlacement {
    var phrase: String
    var at: Vector?
    var gap: Double?
    var repeats = 1

    static let mostRepeats = 1000
    static let longestGap = 60.0

    static func read(_ text: String) -> Result<SynthPlacement, PhraseError> {
        var placement = SynthPlacement(phrase: "")
        var words: [Substring] = []
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var k = 0
        func refuse(_ reason: String) -> Result<SynthPlacement, PhraseError> { .failure(PhraseError(phrase: text, reason: reason)) }
        while k < tokens.count {
            let word = tokens[k].lowercased()
            k += 1
            switch word {
            case "at":
                let size = Synthesizer.surface
                guard k < tokens.count, let p = point(tokens[k]), p.x >= 0, p.x <= size.width, p.y >= 0, p.y <= size.height else {
                    return refuse("\"at\" takes X,Y in mm on the synth panel (0-\(Int(size.width)) by 0-\(Int(size.height))), as in \"tap at 120,70\"")
                }
                placement.at = p
                k += 1
            case "after":
                var number = k < tokens.count ? String(tokens[k]) : ""
                if number.hasSuffix("s") { number.removeLast() }
                guard let s = Double(number), s.isFinite, s >= 0, s <= longestGap else {
                    return refuse("\"after\" takes a pause in seconds from the last lift, 0 to \(Int(longestGap)), as in \"tap after 0.15\"")
                }
                placement.gap = s
                k += 1
                if k < tokens.count, tokens[k] == "s" { k += 1 }
            default:
                if let times = repeatCount(word) {
                    guard times >= 1, times <= mostRepeats else {
                        return refuse("\"\(word)\" repeats the gesture 1 to \(mostRepeats) times, as in \"tap x3\"")
                    }
                    placement.repeats = times
                } else {
                    words.append(tokens[k - 1])
                }
            }
        }
        placement.phrase = words.joined(separator: " ")
        return .success(placement)
    }

    /// "120,70" as a point.
    private static func point(_ token: Substring) -> Vector? {
        let parts = token.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else { return nil }
        return Vector(x, y)
    }

    /// "x3" or "×3": the count; nil for any other word.
    private static func repeatCount(_ word: String) -> Int? {
        var digits = Substring(word)
        if digits.hasPrefix("x") { digits = digits.dropFirst() } else if digits.hasPrefix("×") { digits = digits.dropFirst() } else { return nil }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits) ?? Int.max
    }
}
