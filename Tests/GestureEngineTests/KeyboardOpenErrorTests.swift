#if canImport(Glibc)
import Glibc
#endif
@testable import GestureEngine
import GestureContext
import Testing

@Suite("--keyboard inputs that cannot be opened")
struct KeyboardOpenErrorTests {
    @Test("a missing file says what to give; other failures say the system's reason")
    func texts() {
        #expect(KeyboardOpenError.file(path: "/no/kbd", errno: ENOENT).description
            == "--keyboard /no/kbd: no such file; give a keyboard device or a file of its input_event records")
        #expect(KeyboardOpenError.file(path: "/root/kbd", errno: EACCES).description == "--keyboard /root/kbd: Permission denied")
        #expect(KeyboardOpenError.device(.notKeyboard("/dev/input/event3")).description
            == "--keyboard /dev/input/event3: not a keyboard (it has no letter keys)")
    }

    @Test("opening a path that is not there throws, with the path")
    func missing() {
        let keys = KeyInputs(quietFor: 0, report: { _ in })
        #expect(throws: KeyboardOpenError.file(path: "/nonexistent/keyboard", errno: ENOENT)) { try keys.open("/nonexistent/keyboard") }
        #expect(keys.isEmpty)
    }
}
