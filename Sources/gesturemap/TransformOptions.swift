import GestureEngine
import GestureInput

/// `--rotate [DEVICE=]DEG`, `--flip-x [DEVICE]`, `--flip-y [DEVICE]`,
/// `--calibration [DEVICE=]"a b c d e f"`: for every input, or for the inputs
/// whose path contains DEVICE.
enum TransformOptions {
    static func parse(_ name: String, inline: String?, arguments a: inout Arguments, into options: inout RunOptions) throws(UsageError) {
        switch name {
        case "--flip-x", "--flip-y":
            let device = inline
            update(&options, device: device) { t in
                if name == "--flip-x" { t.flipX = true } else { t.flipY = true }
            }
        case "--rotate":
            let text = try a.value(for: name, inline: inline)
            let (device, value) = split(text)
            guard let degrees = Int(value), [0, 90, 180, 270].contains(degrees) else {
                throw UsageError(message: "--rotate takes 0, 90, 180 or 270 (degrees clockwise), optionally after DEVICE=, not \"\(text)\"")
            }
            update(&options, device: device) { $0.rotation = degrees }
        default:
            let text = try a.value(for: name, inline: inline)
            let (device, value) = split(text)
            var numbers = value.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            // Six separate arguments, as libinput's tools write the matrix.
            if numbers.count == 1 {
                while numbers.count < 6, let next = a.next(), let n = Double(next) { numbers.append(n) }
            }
            // On coordinates normalized to 0..1, a factor past a thousand maps a touch
            // kilometres away: a typo, not a calibration.
            guard numbers.count == 6, numbers.allSatisfy({ abs($0) <= 1000 }) else {
                throw UsageError(message: "--calibration takes six numbers from -1000 to 1000, a b c d e f (libinput's matrix), as in --calibration \"1 0 0 0 1 0\"")
            }
            update(&options, device: device) { $0.calibration = numbers }
        }
    }

    /// "event3=90" → ("event3", "90"); "90" → (nil, "90").
    private static func split(_ text: String) -> (String?, String) {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return (nil, text) }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }

    private static func update(_ options: inout RunOptions, device: String?, _ change: (inout Transform) -> Void) {
        guard let device else {
            change(&options.transform)
            return
        }
        if let i = options.deviceTransforms.firstIndex(where: { $0.match == device }) {
            change(&options.deviceTransforms[i].transform)
        } else {
            var t = options.transform
            change(&t)
            options.deviceTransforms.append((device, t))
        }
    }
}
