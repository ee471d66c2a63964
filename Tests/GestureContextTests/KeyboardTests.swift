#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureContext
import Testing

/// `struct input_event` records, as a keyboard's node gives them (64-bit layout).
func keyRecords(_ events: [(t: Double, type: UInt16, code: UInt16, value: Int32)]) -> [UInt8] {
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    for e in events {
        let seconds = Int64(e.t.rounded(.down))
        append(seconds)
        append(Int64(((e.t - Double(seconds)) * 1e6).rounded()))
        append(e.type)
        append(e.code)
        append(e.value)
    }
    return bytes
}

func press(_ t: Double, _ code: UInt16, _ value: Int32) -> [(t: Double, type: UInt16, code: UInt16, value: Int32)] {
    [(t, 1, code, value), (t, 0, 0, 0)]
}

@Suite("keyboards", .serialized)
struct KeyboardTests {
    @Test("a keyboard that floods is read a bounded amount per turn of the loop, and nothing is lost")
    func floodIsReadInTurns() throws {
        // 5,000 presses and releases: 240 KB, more than one turn reads.
        var events: [(t: Double, type: UInt16, code: UInt16, value: Int32)] = []
        for i in 0..<5_000 { events += press(Double(i) * 0.001, 30, Int32(1 - i % 2)) }
        let path = try temporaryDirectory("kbd").appendingPathComponent("flood").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(keyRecords(events))))
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        #expect(fd >= 0)
        let reader = KeyboardReader(fd: fd, path: path, identity: KeyboardIdentity(name: "flood"), builtIn: false)
        var turns: [Int] = []
        while turns.count < 100, case .events(let got) = reader.handleReadable() { turns.append(got.count) }
        let perTurn = KeyboardReader.readsPerTurn * 4096 / 24
        #expect(turns.count > 1 && turns.allSatisfy { $0 <= perTurn }, "\(turns)")
        #expect(turns.reduce(0, +) == 5_000, "\(turns)")
    }

    @Test("gesturemap's own virtual keyboard is known by its name and id; laptops' keyboards by the i8042 bus")
    func identities() {
        #expect(KeyboardIdentity(name: "gesturemap virtual keyboard").isEngineKeyboard)
        #expect(KeyboardIdentity(name: "renamed", bus: 0x06, vendor: 0x1d6b, product: 0x6d67).isEngineKeyboard)
        #expect(!KeyboardIdentity(name: "AT Translated Set 2 keyboard", bus: 0x11).isEngineKeyboard)
        #expect(KeyboardIdentity(name: "AT Translated Set 2 keyboard", bus: 0x11).isBuiltIn())
        #expect(!KeyboardIdentity(name: "Logitech K120", bus: 0x03).isBuiltIn())
        #expect(KeyboardIdentity(name: "Apple SPI Keyboard", bus: 0x1c).isBuiltIn(builtInNames: ["Apple SPI Keyboard"]))
    }

    @Test("a path that is not an evdev device is a clear error; the ioctl path is not taken for files")
    func notADevice() throws {
        let dir = try temporaryDirectory("kbd")
        let path = dir.appendingPathComponent("plain").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: KeyboardReader.OpenError.cannotOpen(path, "not an evdev device")) {
            try KeyboardReader(devicePath: path)
        }
        #expect(throws: KeyboardReader.OpenError.cannotOpen("/nonexistent/event3", "No such file or directory")) {
            try KeyboardReader(devicePath: "/nonexistent/event3")
        }
    }
}
