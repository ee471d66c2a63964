/// The phrases for a mouse's gestures:
///
/// - a stroke: `"right-drag left"`, `"right-drag left-up"` (an L drawn left,
///   then up), `"middle-drag up,left"`: the button, `drag`, then the arms as
///   a stroke rule's `direction` spells them (`StrokeDirections`);
/// - a chord: `"left+right"` (a rocker: hold left, press right) and
///   `"right+wheel up"` (hold right, turn the wheel up);
/// - a shape drawn with a held button: `"right-drag shape circle"`;
/// - a button's click alone: `"side click"`, `"middle-click"`.
///
/// A stroke phrase needs its arms: `"left drag"` alone stays what it always
/// was, a pan to the left. Every phrase read here was an error before, so
/// none changes meaning.
enum MousePhrase {
    /// The spec, an error that names the phrase, or nil when it is no mouse phrase.
    static func parse(_ phrase: String) -> Result<GestureSpec, PhraseError>? {
        let text = phrase.lowercased()
        if text.contains("+") { return chord(text, phrase: phrase) }
        return stroke(text, phrase: phrase)
    }

    static let separators: Set<Character> = [" ", "-", "_", "\t"]

    /// "right-drag left-up": a button's name, "drag", and at least one more character.
    private static func stroke(_ text: String, phrase: String) -> Result<GestureSpec, PhraseError>? {
        var rest = Substring(text).drop { separators.contains($0) }
        guard let button = MouseButton.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else { return nil }
        rest = rest.dropFirst(button.rawValue.count)
        guard let first = rest.first, separators.contains(first) else { return nil }
        rest = rest.drop { separators.contains($0) }
        if rest.hasPrefix("click") {
            // "side click": the button's click alone, and nothing after it.
            guard rest.dropFirst(5).allSatisfy(separators.contains) else { return nil }
            return .success(GestureSpec(kind: .click, button: button))
        }
        guard rest.hasPrefix("drag") else { return nil }
        rest = rest.dropFirst(4)
        guard let gap = rest.first, separators.contains(gap) else { return nil }
        let arms = rest.drop { separators.contains($0) }
        var trimmed = arms
        while let last = trimmed.last, separators.contains(last) { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { return nil }
        let words = trimmed.split(whereSeparator: { separators.contains($0) })
        if words.first == "shape" {
            // "right-drag shape left curly brace": its name as the templates write it.
            guard words.count > 1 else { return .failure(PhraseError(phrase: phrase, reason: "\"shape\" needs the shape's name, as in \"right-drag shape circle\"")) }
            return .success(GestureSpec(kind: .shape, name: words.dropFirst().joined(separator: "_"), button: button))
        }
        switch StrokeDirections.parse(String(trimmed)) {
        case .success(let read):
            return .success(GestureSpec(kind: .stroke, button: button, arms: read))
        case .failure(let problem):
            return .failure(PhraseError(phrase: phrase, reason: problem.description))
        }
    }

    /// "left+right", "right+wheel up".
    private static func chord(_ text: String, phrase: String) -> Result<GestureSpec, PhraseError> {
        let example = "a chord is written \"left+right\" (hold left, press right) or \"right+wheel up\" (hold right, turn the wheel up)"
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(words)
        guard parts.count == 2 else { return .failure(PhraseError(phrase: phrase, reason: "it joins \(parts.count) parts with \"+\"; \(example)")) }
        guard parts[0].count == 1, let held = MouseButton(rawValue: parts[0][0]) else {
            return .failure(PhraseError(phrase: phrase, reason: "before \"+\" comes the button held first: \(MouseButton.names.joined(separator: ", ")); \(example)"))
        }
        if parts[1].count == 1, let press = MouseButton(rawValue: parts[1][0]) {
            guard press != held else { return .failure(PhraseError(phrase: phrase, reason: "a chord presses a second button, not the one held")) }
            return .success(GestureSpec(kind: .chord, button: held, press: press))
        }
        if parts[1].count == 2, parts[1][0] == "wheel", let turn = Direction(rawValue: parts[1][1]), Direction.cardinals.contains(turn) {
            return .success(GestureSpec(kind: .chord, button: held, wheel: turn))
        }
        return .failure(PhraseError(phrase: phrase, reason: "after \"+\" comes a second button (\(MouseButton.names.joined(separator: ", "))) or the wheel's turn (wheel up, down, left or right); \(example)"))
    }

    private static func words(_ part: Substring) -> [String] {
        part.split(whereSeparator: { separators.contains($0) }).map(String.init)
    }
}
