import CLibevdev
import GestureActions
import GestureCore
import Testing

@Suite("the virtual pointer's packets")
struct PointerPacketsTests {
    func sum(_ packets: [[VirtualEvent]], _ code: Int32) -> Int {
        packets.joined().filter { $0.type == UInt16(EV_REL) && $0.code == UInt16(code) }.reduce(0) { $0 + Int($1.value) }
    }

    @Test("motion: counts are millimetres times the gain, and fractions add up over many small moves instead of being lost")
    func motion() {
        var p = PointerPackets()
        #expect(p.move(dx: 2, dy: -1, gain: 15) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_X), 30), VirtualEvent(UInt16(EV_REL), UInt16(REL_Y), -15)])
        // 0.01 mm at 15 counts a mm is 0.15 counts: alone nothing, a thousand times 150.
        var small = PointerPackets()
        let packets = (0..<1000).map { _ in small.move(dx: 0.01, dy: -0.02, gain: 15) }
        #expect(sum(packets, REL_X) == 150)
        #expect(sum(packets, REL_Y) == -300)
        #expect(packets.filter(\.isEmpty).count > 500)
    }

    @Test("motion that rounds to nothing sends no packet, and no axis that did not move")
    func nothing() {
        var p = PointerPackets()
        #expect(p.move(dx: 0.01, dy: 0, gain: 15).isEmpty)
        #expect(p.move(dx: 0, dy: 1, gain: 15) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_Y), 15)])
    }

    @Test("scrolling: 120 hi-res units a notch, down is a negative wheel, a classic notch each time 120 add up one way")
    func scroll() {
        var p = PointerPackets()
        #expect(p.scroll(dx: 0, dy: 1) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL_HI_RES), -120), VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL), -1)])
        #expect(p.scroll(dx: 0, dy: 0.5) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL_HI_RES), -60)])
        #expect(p.scroll(dx: 0, dy: 0.5) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL_HI_RES), -60), VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL), -1)])
        #expect(p.scroll(dx: 1, dy: 0) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_HWHEEL_HI_RES), 120), VirtualEvent(UInt16(EV_REL), UInt16(REL_HWHEEL), 1)])
        // A wheel turned back starts its notch count again.
        _ = p.scroll(dx: 0, dy: 0.75)
        #expect(p.scroll(dx: 0, dy: -0.5) == [VirtualEvent(UInt16(EV_REL), UInt16(REL_WHEEL_HI_RES), 60)])
    }

    @Test("many small scrolls send as many hi-res units and classic notches as one large one")
    func smallScrolls() {
        var p = PointerPackets()
        let packets = (0..<300).map { _ in p.scroll(dx: 0, dy: 0.01) }
        #expect(sum(packets, REL_WHEEL_HI_RES) == -360)
        #expect(sum(packets, REL_WHEEL) == -3)
    }

    @Test("buttons: left, right and middle are BTN_LEFT, BTN_RIGHT and BTN_MIDDLE")
    func buttons() {
        #expect(PointerPackets.button(.left, down: true) == [VirtualEvent(UInt16(EV_KEY), UInt16(BTN_LEFT), 1)])
        #expect(PointerPackets.button(.right, down: false) == [VirtualEvent(UInt16(EV_KEY), UInt16(BTN_RIGHT), 0)])
        #expect(PointerPackets.code(of: .middle) == UInt16(BTN_MIDDLE))
    }

    @Test("a move beyond what a packet can carry is clipped, never a trap")
    func huge() {
        var p = PointerPackets()
        let events = p.move(dx: 1e300, dy: -1e300, gain: 200)
        #expect(events.map(\.value) == [Int32(PointerPackets.maxCounts), -Int32(PointerPackets.maxCounts)])
        #expect(p.move(dx: .nan, dy: .infinity, gain: 15).isEmpty)
    }
}

@Suite("the virtual touchpad's packets")
struct TouchpadPacketsTests {
    func slots(_ events: [VirtualEvent]) -> [Int32: (x: Int32?, y: Int32?, id: Int32?)] {
        var slot: Int32 = 0
        var out: [Int32: (x: Int32?, y: Int32?, id: Int32?)] = [:]
        for e in events where e.type == UInt16(EV_ABS) {
            switch Int32(e.code) {
            case ABS_MT_SLOT: slot = e.value
            case ABS_MT_POSITION_X: out[slot, default: (nil, nil, nil)].x = e.value
            case ABS_MT_POSITION_Y: out[slot, default: (nil, nil, nil)].y = e.value
            case ABS_MT_TRACKING_ID: out[slot, default: (nil, nil, nil)].id = e.value
            default: break
            }
        }
        return out
    }

    @Test("three fingers land in a row in the middle, with BTN_TOUCH and BTN_TOOL_TRIPLETAP, move together exactly, and lift with tracking id -1")
    func stroke() {
        var t = TouchpadPackets()
        let down = t.begin(fingers: 3)
        let landed = slots(down)
        #expect(landed.count == 3)
        #expect(Set(landed.values.compactMap(\.id)).count == 3)
        #expect(landed[1]?.x == Int32(150 * 20) && landed[1]?.y == Int32(100 * 20))
        #expect(landed[0]?.x == Int32((150 - 18) * 20) && landed[2]?.x == Int32((150 + 18) * 20))
        #expect(down.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOUCH), 1)))
        #expect(down.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOOL_TRIPLETAP), 1)))

        let moved = slots(t.move(dx: 12.5, dy: -3))
        #expect(moved[0]?.x == Int32((150 - 18 + 12.5) * 20) && moved[2]?.y == Int32(97 * 20))
        #expect(t.phase == .down(fingers: 3, centre: Vector(162.5, 97)))

        let up = t.end()
        #expect(slots(up).values.allSatisfy { $0.id == -1 })
        #expect(up.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOUCH), 0)))
        #expect(up.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOOL_TRIPLETAP), 0)))
        #expect(t.end().isEmpty)
        #expect(t.move(dx: 1, dy: 1).isEmpty)
    }

    @Test("a stroke stops at the surface's edge, and a new begin first lifts the fingers down")
    func edges() {
        var t = TouchpadPackets()
        _ = t.begin(fingers: 4)
        _ = t.move(dx: -1000, dy: 1000)
        guard case let .down(_, centre) = t.phase else { Issue.record("no fingers down"); return }
        #expect(centre.x == 18 * 1.5 + 1)
        #expect(centre.y == TouchpadPackets.height - 1)
        #expect(t.move(dx: .nan, dy: 1).isEmpty)
        let again = t.begin(fingers: 2)
        #expect(again.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOOL_QUADTAP), 0)))
        #expect(again.contains(VirtualEvent(UInt16(EV_KEY), UInt16(BTN_TOOL_DOUBLETAP), 1)))
    }
}
