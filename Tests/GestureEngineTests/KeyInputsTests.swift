#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import GestureEngine
import GestureContext
import Testing

/// The keyboards a run reads: what is held as the touch input's time reaches
/// each key, from FIFOs and files as from devices.
@Suite("keyboards read beside the touches", .serialized)
struct KeyInputsTests {
    private static func records(_ events: [(t: Double, code: UInt16, value: Int32)]) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        for e in events {
            for (type, code, value) in [(UInt16(1), e.code, e.value), (0, 0, 0)] {
                let seconds = Int64(e.t.rounded(.down))
                append(seconds)
                append(Int64(((e.t - Double(seconds)) * 1e6).rounded()))
                append(type)
                append(code)
                append(value)
            }
        }
        return bytes
    }

    private static func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-keys-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test("held modifiers and quiet while typing from a FIFO, a record split in two kept until its rest comes, each key as time reaches it")
    func fifo() throws {
        let path = try Self.directory() + "/event7"
        #expect(mkfifo(path, 0o600) == 0)
        var messages: [String] = []
        let keys = KeyInputs(quietFor: 0.3, report: { messages.append($0) })
        let reading = open(path, O_RDONLY | O_NONBLOCK)
        let writer = open(path, O_WRONLY)
        defer {
            close(writer)
            close(reading)
        }
        try keys.open(path)
        let keyboard = try #require(keys.pollable.first)
        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            keys.read(keyboard)
        }
        send(Self.records([(5.0, KeyCode.leftCtrl, 1)]))
        #expect(keys.modifiers == [])
        keys.advance(to: 5.0)
        #expect(keys.modifiers == .ctrl)
        send(Self.records([(5.2, KeyCode.leftShift, 1), (5.3, KeyCode.leftShift, 2), (5.4, KeyCode.leftCtrl, 0), (5.4, KeyCode.leftShift, 0)]))
        keys.advance(to: 5.3)
        #expect(keys.modifiers == [.ctrl, .shift])
        keys.advance(to: 5.45)
        #expect(keys.modifiers == [])
        #expect(!keys.quiets(touchpadTouchAt: 5.45))
        send(Self.records([(6.0, 30, 1), (6.05, 30, 0)]))
        keys.advance(to: 6.1)
        #expect(keys.quiets(touchpadTouchAt: 6.1))
        #expect(!keys.quiets(touchpadTouchAt: 8.0))
        let split = Self.records([(9.0, KeyCode.rightAlt, 1)])
        send(Array(split[0..<10]))
        keys.advance(to: 9.0)
        #expect(keys.modifiers == [])
        send(Array(split[10...]))
        keys.advance(to: 9.0)
        #expect(keys.modifiers == .alt)
        #expect(messages == [])
    }

    @Test("a keyboard FIFO that closes lets go of its keys after its last event, so no modifier stays stuck; a recording file's end keeps them, as recorded")
    func keyboardEnds() throws {
        let dir = try Self.directory()
        let fifo = dir + "/event3"
        #expect(mkfifo(fifo, 0o600) == 0)
        let keys = KeyInputs(quietFor: 0.3, report: { _ in })
        let reading = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reading) }
        let writer = open(fifo, O_WRONLY)
        try keys.open(fifo)
        let keyboard = try #require(keys.pollable.first)
        let bytes = Self.records([(1.0, KeyCode.leftMeta, 1)])
        _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        keys.read(keyboard)
        keys.read(keyboard)
        #expect(!keys.waitsForInput)
        keys.advance(to: 1.0)
        #expect(keys.modifiers == [])

        let file = dir + "/keys"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(Self.records([(1.0, KeyCode.leftMeta, 1)]))))
        let recorded = KeyInputs(quietFor: 0.3, report: { _ in })
        try recorded.open(file)
        recorded.advance(to: 1.5)
        #expect(recorded.modifiers == .super)
    }

    @Test("the machine's keyboards: a directory with no keyboard in it opens none, quietly")
    func noKeyboards() throws {
        let dir = try Self.directory()
        #expect(FileManager.default.createFile(atPath: dir + "/event0", contents: Data()))
        var messages: [String] = []
        let keys = KeyInputs(quietFor: 0.3, report: { messages.append($0) })
        keys.openAll(in: dir)
        #expect(keys.isEmpty)
        #expect(messages == [])
    }
}
