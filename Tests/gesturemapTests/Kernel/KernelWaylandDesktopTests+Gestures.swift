import Foundation
import Testing

/// Pointer gestures as the client gets them (zwp_pointer_gestures_v1, which
/// sway 1.7 forwards from libinput): what a desktop's own touchpad gestures
/// would be made of.
extension KernelWaylandDesktopTests {
    /// Claims three-finger swipes left and right, nothing else.
    static let sideSwipeClaims = """
        on("3-finger swipe left", function(g) emit("left") end, { claim = true })
        on("3-finger swipe right", function(g) emit("right") end, { claim = true })
        """

    /// Three fingers landing together on the clickpad, 15 mm apart, moving
    /// (dx, dy) mm in `frames` frames of 8 ms, then lifting.
    static func threeFingers(dx: Double, dy: Double, frames: Int, from: (x: Double, y: Double)) -> TouchPanel.Script {
        var script = TouchPanel.Script(touchpad: true)
        script.land([(x: from.x, y: from.y), (x: from.x + 15, y: from.y), (x: from.x + 30, y: from.y)])
        script.move(dx: dx, dy: dy, frames: frames)
        script.lift()
        script.pause(0.5)
        return script
    }

    @Test("beside claimed 3-finger swipes left and right, an unclaimed 3-finger swipe up on a touchpad reaches the client as a 3-finger swipe (begin, updates, end), as with the device alone")
    func unclaimedSwipeIsASwipe() throws {
        // 35 mm up in 0.48 s: about 70 mm/s, a deliberate swipe.
        let up = Self.threeFingers(dx: 0, dy: -35, frames: 60, from: (x: 30, y: 50))
        let (alone, shared, engine, actions) = try Self.played(try up.file("desktop-swipe-up.evemu"), description: try ClickPad.description(), rules: Self.sideSwipeClaims)
        Self.say("a 3-finger swipe up beside claimed swipes left and right", alone, shared, loaded: false)
        let a = alone.gestures("swipe"), s = shared.gestures("swipe")
        try #require(a.count == 1 && a[0].fingers == 3 && a[0].cancelled == false, "the device alone gave the client \(alone.gestures.map { "\($0.fingers)-finger \($0.kind)" })")
        #expect(s.count == 1, "the client got \(s.count) swipes through the clone: \(engine.suffix(1500))")
        guard let swipe = s.first else { return }
        #expect(swipe.fingers == 3 && swipe.cancelled == false, "a \(swipe.fingers)-finger swipe, cancelled: \(String(describing: swipe.cancelled))")
        // Upward, as far as a desktop's workspace switch needs: at least half of what the device alone gave.
        #expect(swipe.sum.dy < 0 && -swipe.sum.dy >= 0.5 * -a[0].sum.dy, "the swipe went \(swipe.sum) against \(a[0].sum) alone")
        #expect(swipe.updates.count >= a[0].updates.count / 2, "\(swipe.updates.count) updates against \(a[0].updates.count) alone")
        // Live, not as a burst at the lift.
        let (spread, aloneSpread) = (ClientReading.spread(swipe.updates.map(\.time)), ClientReading.spread(a[0].updates.map(\.time)))
        #expect(spread >= 0.5 * aloneSpread, "the swipe's updates came within \(spread) s against \(aloneSpread) s alone")
        #expect(actions.isEmpty, "a claimed rule fired: \(actions)")
    }

    @Test("a claimed 3-finger swipe left on a touchpad fires once and reaches the client as nothing: no swipe begins, no pointer moves")
    func claimedSwipeIsNothing() throws {
        let left = Self.threeFingers(dx: -55, dy: 0, frames: 30, from: (x: 60, y: 30))
        let (alone, shared, engine, actions) = try Self.played(try left.file("desktop-swipe-left.evemu"), description: try ClickPad.description(), rules: Self.sideSwipeClaims)
        Self.say("a claimed 3-finger swipe left", alone, shared, loaded: false)
        try #require(alone.gestures("swipe").map(\.fingers) == [3], "the device alone gave the client \(alone.gestures.map { "\($0.fingers)-finger \($0.kind)" })")
        #expect(shared.gestures.isEmpty, "the client got \(shared.gestures.map { "\($0.fingers)-finger \($0.kind)" })")
        #expect(shared.motions.isEmpty && shared.buttons.isEmpty, "\(shared.motions.count) motions, buttons \(shared.buttons)")
        #expect(actions == ["left"], "\(actions): \(engine.suffix(1500))")
    }
}
