import GestureContext
import Testing

@Suite("The D-Bus window list, refused unread")
struct DBusWindowListTests {
    @Test("nesting, values and windows past the caps, each in its words")
    func tooBig() {
        let deep = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(DBusWindowList.parse(deep) == .failure(.tooBig(.tooDeep)))
        let tiny = "[" + Array(repeating: "1", count: 5000).joined(separator: ",") + "]"
        #expect(DBusWindowList.parse(tiny) == .failure(.tooBig(.tooManyValues)))
        let window = #"{"id":"a","focused":false}"#
        let many = "[" + Array(repeating: window, count: 257).joined(separator: ",") + "]"
        #expect(DBusWindowList.parse(many) == .failure(.tooBig(.tooManyWindows(257))))
        #expect(DBusWindowList.TooBig.tooDeep.description == "it nests deeper than 4 levels")
        #expect(DBusWindowList.TooBig.tooManyValues.description == "it has more than 4096 values; at most 256 windows are read")
        #expect(DBusWindowList.TooBig.tooManyWindows(257).description == "it lists 257 windows; at most 256")
        #expect(DBusWindowList.parse("{}") == .failure(.notAList))
    }
}
