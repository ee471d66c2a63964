import Foundation
import GestureActions
import GestureInput
import Testing

/// A sink that keeps what it is given.
final class RecordingKeySink: KeySink {
    var events: [(UInt16, UInt16, Int32)] = []
    func write(type: UInt16, code: UInt16, value: Int32) -> Bool {
        events.append((type, code, value))
        return true
    }
}

@Suite("Keys")
struct KeyTests {
    static func names(_ combo: String) -> [String]? {
        guard case .success(let k) = KeyCombo.parse(combo) else { return nil }
        return k.keys.map(\.name)
    }

    @Test("names are the kernel's, case-insensitive, with aliases")
    func names() {
        #expect(Self.names("ctrl+alt+Right") == ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_RIGHT"])
        #expect(Self.names("PageDown") == ["KEY_PAGEDOWN"])
        #expect(Self.names("Next") == ["KEY_PAGEDOWN"])
        #expect(Self.names("pageup") == ["KEY_PAGEUP"])
        #expect(Self.names("super+shift+t") == ["KEY_LEFTMETA", "KEY_LEFTSHIFT", "KEY_T"])
        #expect(Self.names("Escape") == ["KEY_ESC"])
        #expect(Self.names("KEY_F5") == ["KEY_F5"])
        #expect(Self.names("b") == ["KEY_B"])
        #expect(Self.names("ctrl + Tab") == ["KEY_LEFTCTRL", "KEY_TAB"])
    }

    @Test("an unknown key or an empty part is an error that says what names exist")
    func errors() {
        guard case .failure(let e) = KeyCombo.parse("ctrl+Blorp") else {
            Issue.record("Blorp parsed")
            return
        }
        #expect(e.message == "unknown key \"Blorp\" in key(\"ctrl+Blorp\"); names are those of linux/input-event-codes.h without KEY_ (PageDown, Left, A, F5, Esc) or ctrl, alt, shift, super")
        guard case .failure(let f) = KeyCombo.parse("ctrl+") else {
            Issue.record("ctrl+ parsed")
            return
        }
        #expect(f.message == "key(\"ctrl+\"): write keys joined by +, as in \"ctrl+alt+Right\" or \"PageDown\"")
    }

    @Test("a combination presses in order and releases in reverse, with SYN_REPORT between")
    func encoding() throws {
        guard case .success(let combo) = KeyCombo.parse("ctrl+alt+Right") else {
            Issue.record("no combo")
            return
        }
        let sink = RecordingKeySink()
        for e in combo.events { _ = sink.write(type: e.type, code: e.code, value: e.value) }
        // KEY_LEFTCTRL 29, KEY_LEFTALT 56, KEY_RIGHT 106; EV_KEY 1, EV_SYN 0.
        let expected: [(UInt16, UInt16, Int32)] = [
            (1, 29, 1), (0, 0, 0), (1, 56, 1), (0, 0, 0), (1, 106, 1), (0, 0, 0),
            (1, 106, 0), (0, 0, 0), (1, 56, 0), (0, 0, 0), (1, 29, 0), (0, 0, 0),
        ]
        #expect(sink.events.map { "\($0)" } == expected.map { "\($0)" })
    }

    @Test("without /dev/uinput the keyboard says key() needs it (the words: UinputAccessErrorTests)")
    func noUInput() {
        #expect(throws: UinputAccessError.missing(.key, uinput: "/nonexistent/uinput")) {
            _ = try VirtualKeyboard(path: "/nonexistent/uinput")
        }
    }

    @Test("a file that is not uinput fails the setup with its reason")
    func notUInput() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-uinput-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: UinputAccessError.failed(.key, uinput: path, reason: "Inappropriate ioctl for device")) {
            _ = try VirtualKeyboard(path: path)
        }
    }
}
