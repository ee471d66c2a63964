/// Why a shorthand phrase could not be read; `message` is complete and names the phrase.
public struct PhraseError: Error, Equatable, Sendable {
    public var phrase: String
    public var reason: String

    public init(phrase: String, reason: String) {
        self.phrase = phrase
        self.reason = reason
    }

    public var message: String {
        "cannot read gesture phrase \"\(phrase)\": \(reason); phrases look like \"two-finger swipe left\", \"double tap\", \"long press\", \"pinch in\", \"edge swipe from left\""
    }
}

/// Reads the rule language's shorthand ("two-finger left", "3 finger swipe up",
/// "double tap", "edge swipe from left") into a `GestureSpec`.
///
/// Case-insensitive; counts are digits or the words one to five; hyphens and spaces
/// are interchangeable ("long-press", "up left", "2-finger"). A direction alone means a swipe.
public enum PhraseParser {
    public static func parse(_ phrase: String) -> Result<GestureSpec, PhraseError> {
        if let mouse = MousePhrase.parse(phrase) { return mouse.flatMap { validated($0, phrase: phrase) } }
        var reader = Reader(phrase: phrase)
        do {
            return .success(try reader.read())
        } catch let error as PhraseError {
            return .failure(error)
        } catch {
            return .failure(PhraseError(phrase: phrase, reason: "\(error)"))
        }
    }

    private static func validated(_ spec: GestureSpec, phrase: String) -> Result<GestureSpec, PhraseError> {
        do {
            try spec.validate()
            return .success(spec)
        } catch {
            return .failure(PhraseError(phrase: phrase, reason: error.description))
        }
    }

    static let countWords: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "single": 1,
    ]
    static let tapWords: [String: Int] = ["single": 1, "double": 2, "triple": 3]
}

private struct Reader {
    let phrase: String
    let tokens: [String]
    var index = 0

    var kind: GestureKind?
    var fingers: FingerCount?
    var taps: Int?
    var direction: Direction?
    var edge: Edge?
    /// The edge came with "from" (an edge swipe's), not "on the ... edge" (a click's).
    var edgeFrom = false
    /// Clicks: "on the left half".
    var side: Edge?
    var resting: Int?
    var shapeName: String?

    init(phrase: String) {
        self.phrase = phrase
        var words: [String] = []
        var current = ""
        for ch in phrase.lowercased() {
            if ch == " " || ch == "-" || ch == "_" || ch == "\t" {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        tokens = words
    }

    func fail(_ reason: String) -> PhraseError { PhraseError(phrase: phrase, reason: reason) }

    func peek(_ offset: Int = 0) -> String? {
        index + offset < tokens.count ? tokens[index + offset] : nil
    }

    mutating func read() throws -> GestureSpec {
        if tokens.isEmpty { throw fail("it is empty") }
        while let word = peek() {
            try readWord(word)
        }
        if kind == nil {
            if direction == nil {
                if taps != nil { kind = .tap } else { throw fail("it names no gesture") }
            } else if direction == .in || direction == .out {
                kind = .pinch
            } else if direction == .clockwise || direction == .counterclockwise {
                kind = .rotate
            } else {
                kind = .swipe
            }
        }
        guard let kind else { throw fail("it names no gesture") }
        if taps != nil, kind != .tap { throw fail("only a tap can be double or triple") }
        if kind == .edgeSwipe, edge == nil {
            throw fail("an edge swipe needs its edge, as in \"edge swipe from left\"")
        }
        if edgeFrom, kind != .edgeSwipe { throw fail("\"from\" an edge belongs to an edge swipe") }
        if edge != nil, !edgeFrom, kind != .click { throw fail("\"on\" an edge belongs to a click, as in \"click on the bottom edge\"") }
        if side != nil, kind != .click { throw fail("\"on\" a half belongs to a click, as in \"2-finger click on the left half\"") }
        let spec = GestureSpec(kind: kind, fingers: fingers, direction: direction, taps: taps, edge: edge, resting: resting, name: shapeName, side: side)
        do {
            try spec.validate()
        } catch {
            throw fail(error.description)
        }
        return spec
    }

    mutating func readWord(_ word: String) throws {
        index += 1
        if let n = PhraseParser.countWords[word] ?? Int(word), isFingerWord(peek()) {
            try setFingers(.exactly(n), word: word)
            index += 1
            return
        }
        if word == "any", isFingerWord(peek()) {
            try setFingers(.any, word: word)
            index += 1
            return
        }
        if let n = PhraseParser.tapWords[word], peek() == "tap" || peek() == "taps" {
            taps = n
            return
        }
        if isFingerWord(word) { throw fail("\"\(word)\" needs a count before it, as in \"two-finger swipe\"") }
        if word == "shape" {
            try setKind(.shape, word: word)
            readShapeName()
            return
        }
        if let k = kindWord(word) { try setKind(k, word: word); return }
        if word == "from" {
            if peek() == "the" { index += 1 }
            guard let name = peek(), let e = Edge(rawValue: name) else {
                throw fail("\"from\" needs an edge: left, right, top or bottom")
            }
            index += 1
            if peek() == "edge" { index += 1 }
            if edge != nil { throw fail("it names two edges") }
            edge = e
            edgeFrom = true
            return
        }
        if word == "on" { return try readPlace() }
        if let d = directionWord(word) { try setDirection(d, word: word); return }
        if word == "with" { return try readResting() }
        if PhraseParser.countWords[word] != nil || Int(word) != nil {
            throw fail("a count needs \"finger\" after it, as in \"\(word)-finger swipe\"")
        }
        throw fail("unknown word \"\(word)\"")
    }

    func isFingerWord(_ word: String?) -> Bool { word == "finger" || word == "fingers" }

    /// A click's place: "on the left half", "on the bottom edge" (its zone).
    mutating func readPlace() throws {
        if peek() == "the" { index += 1 }
        guard let name = peek(), let e = Edge(rawValue: name) else {
            throw fail("\"on\" needs left, right, top or bottom, as in \"2-finger click on the left half\" or \"click on the bottom edge\"")
        }
        index += 1
        if peek() == "edge" {
            index += 1
            if edge != nil { throw fail("it names two edges") }
            edge = e
        } else {
            if peek() == "half" { index += 1 }
            if side != nil { throw fail("it names two halves") }
            side = e
        }
    }

    /// "shape left curly brace": the words after "shape", up to "with", are the
    /// shape's name, joined as its templates write it (`left_curly_brace`).
    mutating func readShapeName() {
        var words: [String] = []
        while let word = peek(), word != "with" {
            words.append(word)
            index += 1
        }
        if !words.isEmpty { shapeName = words.joined(separator: "_") }
    }

    /// "with 1 resting", "with a resting thumb", "with no resting finger".
    mutating func readResting() throws {
        let count: Int?
        switch peek() {
        case "a", "an": count = 1
        case "no": count = 0
        case let word?: count = PhraseParser.countWords[word] ?? Int(word)
        case nil: count = nil
        }
        guard let count, peek(1) == "resting" else {
            throw fail("\"with\" needs a count of resting contacts, as in \"swipe left with 1 resting\"")
        }
        index += 2
        if let noun = peek(), ["finger", "fingers", "thumb", "thumbs", "contact", "contacts", "palm", "palms"].contains(noun) { index += 1 }
        if resting != nil { throw fail("it gives the resting count twice") }
        resting = count
    }

    mutating func kindWord(_ word: String) -> GestureKind? {
        switch word {
        case "swipe", "swipes", "flick": return .swipe
        case "tap", "taps": return .tap
        case "click", "clicks": return .click
        case "hold": return .longPress
        case "long":
            if peek() == "press" { index += 1; return .longPress }
            return nil
        case "pan", "drag": return .pan
        case "pinch": return .pinch
        case "rotate", "rotation": return .rotate
        case "edge":
            if peek() == "swipe" { index += 1; return .edgeSwipe }
            return nil
        default: return nil
        }
    }

    mutating func directionWord(_ word: String) -> Direction? {
        switch word {
        case "up", "down":
            let next = peek()
            if next == "left" || next == "right", let d = Direction(rawValue: word + "-" + (next ?? "")) {
                index += 1
                return d
            }
            return Direction(rawValue: word)
        case "upleft": return .upLeft
        case "upright": return .upRight
        case "downleft": return .downLeft
        case "downright": return .downRight
        case "left", "right", "in", "out", "clockwise", "counterclockwise": return Direction(rawValue: word)
        case "cw": return .clockwise
        case "ccw", "anticlockwise": return .counterclockwise
        case "counter", "anti":
            if peek() == "clockwise" { index += 1; return .counterclockwise }
            return nil
        default: return nil
        }
    }

    mutating func setFingers(_ count: FingerCount, word: String) throws {
        if fingers != nil { throw fail("it gives the finger count twice") }
        fingers = count
    }

    mutating func setKind(_ k: GestureKind, word: String) throws {
        if let kind, kind != k { throw fail("it names two gestures, \"\(kind.phrase)\" and \"\(k.phrase)\"") }
        kind = k
    }

    mutating func setDirection(_ d: Direction, word: String) throws {
        if let direction { throw fail("it names two directions, \"\(direction.rawValue)\" and \"\(d.rawValue)\"") }
        direction = d
    }
}
