// Fuzz target: `config{}` validation (Thresholds.set with any name and any
// value), then recognition of synthetic gestures under what was accepted.
import GestureCore
import GestureInput
import GestureSynth

/// Frames of one synthetic gesture per phrase, made once.
let syntheticGestures: [[TouchFrame]] = {
    let phrases = ["left", "two-finger swipe up", "tap", "double tap", "two-finger tap", "long press",
                   "pinch in", "pinch out", "rotate clockwise", "edge swipe from left", "3-finger tap"]
    return phrases.map { phrase in
        guard case .success(let spec) = PhraseParser.parse(phrase) else { return [] }
        var synth = Synthesizer(seed: 7)
        var lines = JSONLines()
        lines.line(synth.header())
        synth.append(spec, to: &lines)
        var decoder = NDJSONDecoder(source: "synth")
        var frames: [TouchFrame] = []
        lines.bytes.withUnsafeBytes { decoder.feed($0) { frames.append($0) } }
        decoder.finish { frames.append($0) }
        return frames
    }
}()

/// Values a rule might plausibly, or mischievously, write.
let specialValues: [Double] = [0, -0.0, 1, -1, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
                               .greatestFiniteMagnitude, 1e300, -1e300, 0.5, 1e-9, 9_007_199_254_740_992, 9_007_199_254_740_994]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let replay = UInt16(input.byte()) << 8 | UInt16(input.byte())
    var thresholds = Thresholds()
    var settings = 0
    while !input.isAtEnd && settings < 64 {
        settings += 1
        let op = input.byte()
        let known = Threshold.allCases[Int(op) % Threshold.allCases.count]
        let name: String
        if op & 0x80 == 0 {
            name = known.rawValue
        } else {
            // A name from the input's bytes: misspellings, other cases, NULs, invalid UTF-8.
            var bytes: [UInt8] = []
            for _ in 0..<Int(op & 0x1F) { bytes.append(input.byte()) }
            name = String(decoding: bytes, as: UTF8.self)
        }
        let value: Double
        let how = input.byte()
        switch how % 4 {
        case 0: value = input.double()
        case 1: value = how & 0x10 == 0 ? known.range.lowerBound : known.range.upperBound
        case 2: value = known.range.lowerBound + (known.range.upperBound - known.range.lowerBound) * Double(input.byte()) / 255
        default: value = specialValues[Int(input.byte()) % specialValues.count]
        }
        let before = thresholds
        do throws(ConfigKeyError) {
            try thresholds.set(name: name, value: value)
            guard let key = Threshold(rawValue: name), value.isFinite, key.range.contains(value), thresholds[key] == value else {
                fatalError("config{ \(name.debugDescription) = \(value) } was accepted")
            }
        } catch {
            if thresholds != before { fatalError("a refused config{ \(name) = \(value) } changed the thresholds") }
            if error.description.isEmpty { fatalError("a refusal without a message") }
        }
    }
    // Recognition under the accepted values: extremes of every range included.
    var core = CoreUnderTest(thresholds: thresholds)
    var shift = 0.0
    for (i, frames) in syntheticGestures.enumerated() where replay & (1 << UInt16(i)) != 0 {
        for var frame in frames {
            frame.time += shift
            core.handle(frame)
        }
        shift += (frames.last?.time ?? 0) + 1
    }
    core.finish()
    return 0
}
