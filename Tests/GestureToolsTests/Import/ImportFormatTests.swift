import Testing
@testable import GestureTools

@Suite("import finds the format from the content")
struct ImportFormatTests {
    func detect(_ text: String) -> ImportFormat? { ImportFormat.detect(Array(text.utf8)) }

    @Test func eachFormat() {
        #expect(detect("<touchégg>\n</touchégg>\n") == .touchegg)
        #expect(detect("<?xml version=\"1.0\"?>\n<touchégg/>") == .touchegg)
        #expect(detect("# comment\ngesture swipe left 3 xdotool key alt+Right\n") == .libinputGestures)
        #expect(detect("gesture: swipe left xdotool key alt+Right\n") == .libinputGestures)
        #expect(detect("swipe:\n  3:\n    left:\n      command: x\n") == .fusuma)
        #expect(detect("threshold:\n  swipe: 1\n") == .fusuma)
    }

    @Test func aMergeKeyIsNoXML() {
        #expect(detect("a: &a\n  command: x\nswipe:\n  3:\n    <<: *a\n") == .fusuma)
    }

    @Test func nothingToGoOn() {
        #expect(detect("") == nil)
        #expect(detect("hello world\n") == nil)
    }
}
