import Testing
@testable import GestureCore

@Suite("How a mouse stroke's directions are written: hyphens between arms, commas where hyphens would spell a diagonal")
struct StrokeDirectionsTests {
    @Test("a rule's direction reads as the arms it names", arguments: [
        ("left", [Direction.left]),
        ("left-up", [.left, .up]),
        ("Down-Right-Up", [.down, .right, .up]),
        ("up-left", [.upLeft]),
        ("up,left", [.up, .left]),
        ("left,up", [.left, .up]),
        ("right,down-left", [.right, .downLeft]),
        ("up-left-down", [.up, .left, .down]),
        ("down-right, up-right", [.downRight, .upRight]),
    ])
    func reads(_ text: String, _ arms: [Direction]) throws {
        #expect(try StrokeDirections.parse(text).get() == arms)
    }

    @Test("every reading is spelled so that it reads back the same, a diagonal's name never standing for two arms", arguments: [
        ([Direction.left], "left"),
        ([.left, .up], "left-up"),
        ([.up, .left], "up,left"),
        ([.down, .right], "down,right"),
        ([.right, .down], "right-down"),
        ([.upLeft], "up-left"),
        ([.right, .downLeft], "right,down-left"),
        ([.down, .right, .up], "down-right-up"),
    ])
    func spells(_ arms: [Direction], _ name: String) throws {
        #expect(StrokeDirections.name(arms) == name)
        #expect(try StrokeDirections.parse(name).get() == arms)
    }

    @Test("what is no stroke says why and what to write", arguments: [
        ("left-left", "\"left-left\" goes left twice in a row, which is one arm; write \"left\" once there"),
        ("left-up-right-down-left", "\"left-up-right-down-left\" has 5 arms; a stroke has at most 4"),
        ("in", "\"in\" is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another, such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"),
        ("left-sideways", "\"sideways\" in \"left-sideways\" is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another, such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"),
        ("left,,up", "\"left,,up\" has an empty arm; join arms with one hyphen or comma, such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"),
        ("", "a stroke's direction is empty; leave \"direction\" out for any stroke, or give one such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"),
        ("left-\u{1B}[2J", "\"\\u{1B}[2j\" in \"left-\\u{1B}[2J\" is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another, such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"),
    ])
    func refuses(_ text: String, _ message: String) {
        guard case .failure(let problem) = StrokeDirections.parse(text) else {
            Issue.record("\"\(text)\" should be refused")
            return
        }
        #expect(problem.description == message)
    }

    @Test("a direction longer than any stroke is refused before it is read")
    func long() {
        guard case .failure(let problem) = StrokeDirections.parse(String(repeating: "left-", count: 1000)) else {
            Issue.record("should be refused")
            return
        }
        #expect(problem.description.hasPrefix("a stroke's direction is at most 128 bytes"))
    }

    @Test("the reading of an L drawn up then left is named as rules write it")
    func readingName() {
        let stroke = MouseStrokeReading.Stroke(directions: [.up, .left], length: 40, duration: 0.3)
        #expect(stroke.name == "up,left")
    }
}
