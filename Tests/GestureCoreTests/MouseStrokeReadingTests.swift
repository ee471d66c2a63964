import Foundation
import Testing
@testable import GestureCore

/// Paths as a mouse reports them: whole counts a packet (1000 dpi, 125 Hz),
/// each arm bowed a little and every packet off by up to `jitter` counts.
private struct MouseDrawer {
    var seed: UInt64
    var bow = 0.05
    var jitter = 2
    static let countsPerMillimetre = 1000 / 25.4

    private mutating func random(_ bound: Int) -> Int {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }

    /// Through `corners` (mm, y down) at `speed` mm/s.
    mutating func draw(_ corners: [(Double, Double)], speed: Double = 150) -> [MouseStrokeReading.Point] {
        var points = [MouseStrokeReading.Point(time: 0, x: 0, y: 0)]
        var counts = (x: 0, y: 0)
        var time = 0.0
        let start = corners.first ?? (0, 0)
        for k in corners.indices.dropFirst() {
            let a = corners[k - 1], b = corners[k]
            let dx = b.0 - a.0, dy = b.1 - a.1
            let length = (dx * dx + dy * dy).squareRoot()
            let steps = max(1, Int((length / speed) * 125))
            let side = random(2) == 0 ? 1.0 : -1.0
            for i in 1...steps {
                let t = Double(i) / Double(steps)
                let off = sin(Double.pi * t) * bow * length * side
                let x = a.0 + dx * t - dy / max(length, 1e-9) * off - start.0
                let y = a.1 + dy * t + dx / max(length, 1e-9) * off - start.1
                let wantX = Int((x * Self.countsPerMillimetre).rounded()) + random(2 * jitter + 1) - jitter
                let wantY = Int((y * Self.countsPerMillimetre).rounded()) + random(2 * jitter + 1) - jitter
                counts = (wantX, wantY)
                time += 0.008
                points.append(MouseStrokeReading.Point(time: time, x: Double(counts.x) / Self.countsPerMillimetre, y: Double(counts.y) / Self.countsPerMillimetre))
            }
        }
        return points
    }
}

@Suite("Mouse strokes read as directions from a drawn path")
struct MouseStrokeReadingTests {
    static let seeds: [UInt64] = Array(1...25)

    @Test("straight strokes, bowed and noisy, are one direction", arguments: seeds)
    func straight(seed: UInt64) throws {
        var drawer = MouseDrawer(seed: seed)
        let reading = MouseStrokeReading()
        #expect(try reading.read(drawer.draw([(0, 0), (-30, 0)])).get().directions == [.left])
        #expect(try reading.read(drawer.draw([(0, 0), (0, 25)])).get().directions == [.down])
        #expect(try reading.read(drawer.draw([(0, 0), (40, -12)], speed: 400)).get().directions == [.right], "17° off the axis is still right")
    }

    @Test("an L drawn left then up is left-up; a rounded corner is still a corner", arguments: seeds)
    func ell(seed: UInt64) throws {
        var drawer = MouseDrawer(seed: seed)
        let reading = MouseStrokeReading()
        let sharp = try reading.read(drawer.draw([(0, 0), (-25, 0), (-25, -25)])).get()
        #expect(sharp.directions == [.left, .up] && sharp.name == "left-up")
        let rounded = try reading.read(drawer.draw([(0, 0), (-20, 0), (-24, -1), (-25, -5), (-25, -25)])).get()
        #expect(rounded.directions == [.left, .up])
    }

    @Test("sequences of three arms, and a stroke that comes back on itself", arguments: seeds)
    func sequences(seed: UInt64) throws {
        var drawer = MouseDrawer(seed: seed)
        let reading = MouseStrokeReading()
        #expect(try reading.read(drawer.draw([(0, 0), (0, 20), (30, 20), (30, 0)])).get().name == "down-right-up")
        #expect(try reading.read(drawer.draw([(0, 0), (30, 0), (2, 0)])).get().directions == [.right, .left])
    }

    @Test("a hook at the end, as a hand lets go, is left out", arguments: seeds)
    func hook(seed: UInt64) throws {
        var drawer = MouseDrawer(seed: seed)
        let stroke = try MouseStrokeReading().read(drawer.draw([(0, 0), (40, 0), (37, 3)])).get()
        #expect(stroke.directions == [.right])
    }

    @Test("eight directions: diagonals, and a sequence with one is spelled with commas", arguments: seeds)
    func eightWay(seed: UInt64) throws {
        var drawer = MouseDrawer(seed: seed)
        let reading = MouseStrokeReading(eightWay: true)
        let diagonal = try reading.read(drawer.draw([(0, 0), (-22, -22)])).get()
        #expect(diagonal.directions == [.upLeft] && diagonal.name == "up-left")
        let two = try reading.read(drawer.draw([(0, 0), (30, 0), (10, 20)])).get()
        #expect(two.directions == [.right, .downLeft] && two.name == "right,down-left")
        #expect(try reading.read(drawer.draw([(0, 0), (30, 5)])).get().directions == [.right], "10° off is no diagonal")
    }

    @Test("what is no stroke says why: too short, or too many turns")
    func shortfalls() {
        var drawer = MouseDrawer(seed: 7)
        let reading = MouseStrokeReading()
        let short = reading.read(drawer.draw([(0, 0), (3, 0)]))
        guard case .failure(let tooShort) = short else { Issue.record("a 3 mm stroke was read: \(short)"); return }
        #expect(tooShort.description.hasPrefix("it went 3.") && tooShort.description.hasSuffix(" mm; a stroke goes 5.0 mm or more"))
        let zigzag = reading.read(drawer.draw([(0, 0), (20, 0), (20, 20), (40, 20), (40, 0), (60, 0), (60, 20)]))
        #expect(zigzag == .failure(.tooManyTurns(arms: 6, limit: 4)))
        #expect(MouseStrokeReading.Shortfall.tooManyTurns(arms: 6, limit: 4).description == "it turned into 6 arms; a stroke has at most 4")
    }

    @Test("hostile paths: none, one point, points that are not numbers, a still mouse")
    func hostile() throws {
        let reading = MouseStrokeReading()
        #expect(reading.read([]) == .failure(.tooShort(length: 0, needed: 5)))
        #expect(reading.read([.init(time: 0, x: 1, y: 1)]) == .failure(.tooShort(length: 0, needed: 5)))
        let nan = [MouseStrokeReading.Point(time: 0, x: 0, y: 0), .init(time: 0.1, x: .nan, y: 3), .init(time: 0.2, x: .infinity, y: 0),
                   .init(time: 0.3, x: 20, y: 0)]
        #expect(try reading.read(nan).get().directions == [.right])
        let still = (0..<500).map { MouseStrokeReading.Point(time: Double($0) * 0.008, x: 0, y: 0) }
        #expect(reading.read(still) == .failure(.tooShort(length: 0, needed: 5)))
        let long = (0..<20000).map { MouseStrokeReading.Point(time: Double($0) * 0.001, x: Double($0) * 0.01, y: sin(Double($0)) * 0.01) }
        #expect(try reading.read(long).get().directions == [.right])
    }
}
