import Testing
@testable import GestureServe

@Suite("The page's messages")
struct PageMessageTests {
    @Test("a surface and a touch event as the page sends them")
    func valid() {
        #expect(PageMessage.parse(#"{"type":"surface","width":390,"height":844,"ratio":3}"#) == .success(.surface(width: 390, height: 844, ratio: 3)))
        #expect(PageMessage.parse(#"{"type":"touchmove","t":5123.4,"touches":[[0,120.5,300],[4294967295,180,310]]}"#)
            == .success(.touches(.touchmove, time: 5123.4, [PageTouch(identifier: 0, x: 120.5, y: 300), PageTouch(identifier: 4_294_967_295, x: 180, y: 310)])))
    }

    @Test("what is wrong with a bad message, in words", arguments: [
        ("{not json", "not JSON: a quoted key was expected at column 2"),
        (#"{"t":1}"#, "no \"type\" string"),
        (#"{"type":"surface","width":0,"height":844,"ratio":3}"#, "a surface needs width and height 1 to 100000 (CSS px) and ratio 0.1 to 20"),
        (#"{"type":"wheel"}"#, "unknown type \"wheel\"; the page sends surface, touchstart, touchmove, touchend, touchcancel"),
        (#"{"type":"touchstart","touches":[[0,1,1]]}"#, "touchstart needs \"t\", the event's timeStamp in ms (0 to 1e13)"),
        (#"{"type":"touchstart","t":-1,"touches":[[0,1,1]]}"#, "touchstart needs \"t\", the event's timeStamp in ms (0 to 1e13)"),
        (#"{"type":"touchend","t":1,"touches":[]}"#, "touchend needs \"touches\", 1 to 20 [identifier, x, y] arrays"),
        (#"{"type":"touchmove","t":1,"touches":[[0.5,1,1]]}"#, "a touch is [identifier (an integer), x, y (CSS px, at most 100000 from the corner)]"),
        (#"{"type":"touchmove","t":1,"touches":[[0,1e300,1]]}"#, "a touch is [identifier (an integer), x, y (CSS px, at most 100000 from the corner)]"),
        (#"{"type":"touchmove","t":1,"touches":[[0,1]]}"#, "a touch is [identifier (an integer), x, y (CSS px, at most 100000 from the corner)]"),
    ])
    func invalid(text: String, message: String) {
        #expect(PageMessage.parse(text) == .failure(PageMessageError(message)))
    }

    @Test("a control character in an unknown type is escaped for the terminal")
    func escapedType() {
        guard case .failure(let error) = PageMessage.parse(#"{"type":"\u001b[2J"}"#) else { Issue.record("accepted"); return }
        #expect(!error.message.contains("\u{1b}"))
    }
}

@Suite("A page's session as records of the native format")
struct PageSessionTests {
    static func text(_ session: inout PageSession, _ message: PageMessage, at arrival: Double) -> String {
        switch session.records(for: message, arrival: arrival) {
        case .success(let records): return records.summary
        case .failure(let error): return "error: " + error.message
        }
    }

    @Test("the surface becomes a device header in CSS px at 160 per inch, named after the connection")
    func header() {
        var session = PageSession(deviceName: "phone 10.0.0.7:40112")
        let line = Self.text(&session, .surface(width: 390, height: 844, ratio: 3), at: 100)
        #expect(line == "device phone 10.0.0.7:40112 x=0.0...390.0 y=0.0...844.0 resolution=6.299212598425197,6.299212598425197")
    }

    @Test("touches before the surface are a protocol error")
    func touchesFirst() {
        var session = PageSession(deviceName: "p")
        #expect(Self.text(&session, .touches(.touchstart, time: 1, [PageTouch(identifier: 1, x: 1, y: 1)]), at: 5) == "error: touchstart before the page's surface size")
    }

    @Test("page times move to the engine's clock, never ahead of arrival and never backwards; large ids become small ones")
    func clockAndIds() {
        var session = PageSession(deviceName: "p")
        _ = Self.text(&session, .surface(width: 100, height: 100, ratio: 1), at: 0)
        // The first message came 0.5 s after its event, the second only 0.25 s: the offset drops to it.
        let a = Self.text(&session, .touches(.touchstart, time: 1000, [PageTouch(identifier: 987_654_321, x: 10, y: 20)]), at: 50.5)
        #expect(a == "down t=50.5 id=0 x=10.0 y=20.0\nsync t=50.5")
        let b = Self.text(&session, .touches(.touchstart, time: 1250, [PageTouch(identifier: 5, x: 30, y: 40)]), at: 50.5)
        #expect(b == "down t=50.5 id=1 x=30.0 y=40.0\nsync t=50.5")
        // Later ones delayed (Wi-Fi delivering a bunch) keep the page's spacing.
        let c = Self.text(&session, .touches(.touchend, time: 1500, [PageTouch(identifier: 987_654_321, x: 0, y: 0)]), at: 51.9)
        #expect(c == "up t=50.75 id=0\nsync t=50.75")
        #expect(session.touchesDown == 1)
        // The small id is free again for the next touch.
        let d = Self.text(&session, .touches(.touchstart, time: 2000, [PageTouch(identifier: 77, x: 1, y: 2)]), at: 51.9)
        #expect(d.hasPrefix("down t=51.25 id=0 "))
        #expect(session.firstClockJump == nil)
    }

    @Test("a page time far off the clock (one huge t, a clock that jumped) starts the mapping again: later touches keep their spacing from there", arguments: [
        1e13, 0,
    ])
    func clockJump(wild: Double) {
        var session = PageSession(deviceName: "p")
        _ = Self.text(&session, .surface(width: 100, height: 100, ratio: 1), at: 0)
        _ = Self.text(&session, .touches(.touchstart, time: 5000, [PageTouch(identifier: 1, x: 1, y: 1)]), at: 10)
        _ = Self.text(&session, .touches(.touchend, time: 5050, [PageTouch(identifier: 1, x: 1, y: 1)]), at: 10.05)
        // One message with a time allowed but wild: never ahead of its arrival, never backwards.
        let wildLine = Self.text(&session, .touches(.touchmove, time: wild, [PageTouch(identifier: 9, x: 1, y: 1)]), at: 11)
        #expect(wildLine == "sync t=11.0")
        // The page's next tap, on its own clock: timed from its arrival, its 50 ms kept.
        let down = Self.text(&session, .touches(.touchstart, time: 6000, [PageTouch(identifier: 2, x: 1, y: 1)]), at: 12)
        let up = Self.text(&session, .touches(.touchend, time: 6050, [PageTouch(identifier: 2, x: 1, y: 1)]), at: 12.06)
        #expect(down.hasPrefix("down t=12.0 "))
        #expect(up.hasPrefix("up t=12.05 "))
        #expect(session.firstClockJump.map { $0 > PageSession.clockJumpLimit } == true)
    }

    @Test("moves and ends of touches the page never started are left out")
    func unknownTouch() {
        var session = PageSession(deviceName: "p")
        _ = Self.text(&session, .surface(width: 100, height: 100, ratio: 1), at: 0)
        #expect(Self.text(&session, .touches(.touchmove, time: 1, [PageTouch(identifier: 3, x: 1, y: 1)]), at: 1) == "sync t=1.0")
    }

    @Test("more touches down than any phone has is a protocol error, and state stays bounded")
    func tooManyTouches() {
        var session = PageSession(deviceName: "p")
        _ = Self.text(&session, .surface(width: 100, height: 100, ratio: 1), at: 0)
        for i in 0..<PageSession.maxTouchesDown {
            _ = Self.text(&session, .touches(.touchstart, time: 1, [PageTouch(identifier: Int64(i), x: 1, y: 1)]), at: 1)
        }
        #expect(Self.text(&session, .touches(.touchstart, time: 1, [PageTouch(identifier: 99, x: 1, y: 1)]), at: 1) == "error: more than 16 touches down at once")
        #expect(session.touchesDown == PageSession.maxTouchesDown)
    }
}
