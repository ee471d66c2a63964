#if canImport(Glibc)
import Glibc
#endif

extension KernelMouse.Script {
    /// A circle of `radius` counts drawn from its top, anticlockwise on the
    /// screen and a little past the start, in 40 packets at 125 Hz.
    mutating func circle(radius: Double) {
        var sentX: Int32 = 0, sentY: Int32 = 0
        for i in 1...40 {
            let a = -Double.pi / 2 - 2 * Double.pi * 1.05 * Double(i) / 40
            let x = Int32((radius * cos(a)).rounded()), y = Int32((radius * sin(a) + radius).rounded())
            move(dx: x - sentX, dy: y - sentY, packets: 1)
            sentX = x
            sentY = y
        }
    }
}
