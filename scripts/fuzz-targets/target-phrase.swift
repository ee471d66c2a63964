// Fuzz target: the shorthand phrase parser ("two-finger swipe left").
import GestureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let phrase = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    switch PhraseParser.parse(phrase) {
    case .success(let spec):
        // What the parser accepts is a spec the core can hold.
        if case .exactly(let n) = spec.fingers, !(1...GestureSpec.maxFingers).contains(n) {
            fatalError("phrase \(phrase.debugDescription): \(n) fingers")
        }
        if spec.kind == .tap, !(1...GestureSpec.maxTaps).contains(spec.taps) {
            fatalError("phrase \(phrase.debugDescription): \(spec.taps) taps")
        }
        if let direction = spec.direction, !spec.kind.allowedDirections.contains(direction) {
            fatalError("phrase \(phrase.debugDescription): \(spec.kind) \(direction)")
        }
        // An edge swipe needs its edge; a click may name one (its zone); nothing else has one.
        if spec.kind == .edgeSwipe ? spec.edge == nil : (spec.edge != nil && spec.kind != .click) {
            fatalError("phrase \(phrase.debugDescription): \(spec.kind) with edge \(String(describing: spec.edge))")
        }
        if spec.side != nil, spec.kind != .click {
            fatalError("phrase \(phrase.debugDescription): \(spec.kind) on a half")
        }
        // A stroke has its button and 1 to 4 arms; a chord its button and a second
        // button or the wheel's turn, not both; no other kind has arms, a press or a turn.
        switch spec.kind {
        case .stroke:
            guard spec.button != nil, let arms = spec.arms, (1...StrokeDirections.maxArms).contains(arms.count) else {
                fatalError("phrase \(phrase.debugDescription): a stroke without its button or arms")
            }
        case .chord:
            guard let held = spec.button, (spec.press == nil) != (spec.wheel == nil), spec.press != held else {
                fatalError("phrase \(phrase.debugDescription): a chord without its two parts")
            }
        default:
            if spec.arms != nil || spec.press != nil || spec.wheel != nil {
                fatalError("phrase \(phrase.debugDescription): \(spec.kind) with a mouse's arms, press or wheel")
            }
        }
    case .failure(let error):
        // Errors quote the phrase (docs/architecture.md: "an error that quotes the phrase").
        // Compared as bytes: a combining mark first would join the quote into one Character.
        if !Array(error.message.utf8).containsBytes(Array(phrase.utf8)) { fatalError("error for \(phrase.debugDescription) does not quote it: \(error.message)") }
    }
    return 0
}

extension Array where Element == UInt8 {
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
