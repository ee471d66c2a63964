import Testing
@testable import GestureEngine

/// When a shared device's touches go back to the desktop.
@Suite struct ClaimWatchTests {
    private func judged(_ watch: inout ClaimWatch, _ sequence: Int, _ mayStillFire: Bool) -> Bool {
        watch.judge(sequence: sequence, claimMayStillFire: mayStillFire)
    }

    @Test("a sequence goes back once, when its last claim fails, not while one can still take it")
    func givenOnceWhenTheLastClaimFails() {
        var watch = ClaimWatch.idle
        #expect(!judged(&watch, 1, true))
        #expect(!judged(&watch, 1, true))
        #expect(judged(&watch, 1, false))
        #expect(watch == .given(sequence: 1))
        #expect(!judged(&watch, 1, false))
    }

    @Test("a sequence no claim could take from its first frame goes back at that frame, and the next one too")
    func givenAtTheFirstFrame() {
        var watch = ClaimWatch.idle
        #expect(judged(&watch, 4, false))
        #expect(!judged(&watch, 4, false))
        #expect(judged(&watch, 5, false))
        #expect(!judged(&watch, 6, true))
        #expect(watch == .open(sequence: 6))
    }
}
