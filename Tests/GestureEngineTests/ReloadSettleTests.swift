import Testing
@testable import GestureEngine

@Suite("When the rules reload")
struct ReloadSettleTests {
    @Test("a change waits for a quiet 0.1 s, and at most a second after the first change")
    func settles() {
        var settle = ReloadSettle()
        #expect(settle.due == nil)
        settle.changed(at: 10)
        #expect(settle.due == 10.1)
        for k in 1...30 { settle.changed(at: 10 + Double(k) * 0.05) }
        #expect(settle.due == 11)
        #expect(settle.takeDue(at: 10.9) == nil)
        #expect(settle.takeDue(at: 11) == .fileChanged)
        #expect(settle.takeDue(at: 12) == nil)
    }

    @Test("SIGHUP is due at once, and takes a file change waiting with it")
    func signal() {
        var settle = ReloadSettle()
        settle.changed(at: 5)
        settle.signalled()
        #expect(settle.takeDue(at: 5) == .signal)
        #expect(settle.due == nil)
    }

    @Test("after a reload that took 0.5 s, the next waits 4.5 s: reloads take at most a tenth of the time")
    func share() {
        var settle = ReloadSettle()
        settle.signalled()
        #expect(settle.takeDue(at: 100) == .signal)
        settle.reloaded(from: 100, to: 100.5)
        settle.signalled()
        #expect(settle.due == 105)
        #expect(settle.takeDue(at: 104.9) == nil)
        settle.changed(at: 104.95)
        #expect(settle.takeDue(at: 105) == .signal)
        // A quick reload holds the next back by almost nothing.
        settle.reloaded(from: 105, to: 105.001)
        settle.changed(at: 105.002)
        #expect(abs((settle.due ?? 0) - 105.102) < 1e-9)
    }

    @Test("a file that read empty is being written: nothing is due until it changes, then it is read at once, with no quiet to wait for")
    func emptyRead() {
        var settle = ReloadSettle()
        settle.changed(at: 20)
        #expect(settle.takeDue(at: 21) == .fileChanged)
        settle.readEmpty()
        #expect(settle.due == nil)
        #expect(settle.takeDue(at: 30) == nil)
        // Written without pause, the file never goes quiet: the next change is read now.
        settle.changed(at: 30.01)
        #expect(settle.takeDue(at: 30.01) == .fileChanged)
        #expect(settle.due == nil)
    }

    @Test("with no rules running yet (an empty file at start), the first change is read at once")
    func runningNothing() {
        var settle = ReloadSettle(runningNothing: true)
        #expect(settle.due == nil)
        settle.changed(at: 3)
        #expect(settle.takeDue(at: 3) == .fileChanged)
        // Rules running: changes settle again.
        settle.reloaded(from: 3, to: 3)
        settle.changed(at: 4)
        #expect(settle.due == 4.1)
    }
}
