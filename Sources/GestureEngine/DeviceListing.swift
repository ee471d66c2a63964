import GestureCore
import GestureInput

/// `gesturemap devices`: the touch devices and their axes.
public enum DeviceListing {
    /// Lists the devices on the console, or as JSON lines on `output`.
    public static func run(json: Bool, console: Console, output: (String) -> Void) -> ExitCode {
        let scan = DeviceScanner.scan()
        guard !scan.touch.isEmpty else {
            console.say("gesturemap devices: " + DeviceScanner.explainNone(scan))
            return .unavailable
        }
        for path in scan.touch {
            guard let device = try? InputDevice(path: path) else { continue }
            let d = device.description
            let info = d.deviceInfo
            if json {
                var w = JSONWriter()
                w.raw("{\"path\":")
                w.string(path)
                w.raw(",\"name\":")
                w.string(d.name ?? "")
                w.raw(",\"kind\":")
                w.string(device.kindName)
                for (key, axis) in [("x", info.x), ("y", info.y)] {
                    w.raw(key == "x" ? ",\"x\":{\"min\":" : ",\"y\":{\"min\":")
                    w.number(axis.minimum)
                    w.raw(",\"max\":")
                    w.number(axis.maximum ?? 0)
                    w.raw(",\"resolution\":")
                    w.number(axis.resolution ?? 0)
                    w.byte(0x7D)
                }
                w.raw(",\"slots\":")
                w.integer(Int64(d.slotCount ?? 0))
                w.byte(0x7D)
                output(w.text)
            } else {
                console.say("\(path)  \(d.name.map(TerminalText.escaped) ?? "unnamed")  (\(device.kindName))")
                console.say("    x \(describe(info.x))")
                console.say("    y \(describe(info.y))")
                console.say("    \(d.slotCount.map { "\($0) slots" } ?? "no slots (single touch or protocol A)")\(d.isSemiMT ? ", semi-MT" : "")")
            }
        }
        for problem in scan.problems { console.say("gesturemap devices: " + problem.message) }
        return .ok
    }

    private static func describe(_ axis: AxisInfo) -> String {
        let whole = { (v: Double) in Checked.clampedInteger(v, as: Int.self) ?? 0 }
        let range = "\(whole(axis.minimum))..\(whole(axis.maximum ?? 0))"
        guard let res = axis.resolution, res > 0 else { return range + ", no resolution (gesturemap assumes a size; see run --size)" }
        let mm = ((axis.maximum ?? 0) - axis.minimum) / res
        return range + ", \(whole(res)) units/mm, \(whole(mm)) mm"
    }
}
