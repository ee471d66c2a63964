import GestureCore
import Testing

@Suite("A frame's header")
struct TouchFrameHeaderTests {
    @Test("the header holds every field of a frame but its touches: a new field added to one and not the other fails here")
    func sameFields() {
        let frame = TouchFrame(time: 1, touches: [Touch(id: 1, position: Vector(2, 3), phase: .began)], surface: Surface(width: 100, height: 60),
                               device: 2, reportedFingers: 3, boundingBox: true)
        let frameFields = Mirror(reflecting: frame).children.compactMap(\.label).filter { $0 != "touches" }
        let headerFields = Mirror(reflecting: frame.header).children.compactMap(\.label)
        #expect(frameFields == headerFields)
    }

    @Test("a header taken into another frame gives it every field back, touches left as they were")
    func roundTrip() {
        let frame = TouchFrame(time: 1.5, touches: [], surface: Surface(width: 100, height: 60), device: 4, reportedFingers: 2, boundingBox: true)
        var other = TouchFrame(time: 0, touches: [Touch(id: 9, position: Vector(1, 1), phase: .moved)])
        other.take(frame.header)
        #expect(other.header == frame.header)
        #expect(other.touches.map(\.id) == [9])
    }
}
