@testable import GestureContext
import Testing

/// The X11 focus lookup as a state machine: the requests it makes and what it
/// concludes from answers given in order, with no X server.
@Suite("X11 focus lookup without waiting")
struct X11FocusQueryTests {
    typealias Q = X11FocusQuery
    static let root: UInt32 = 0x100

    static func text(_ string: String) -> Q.Answer { .property(Q.Value(format: 8, bytes: Array(string.utf8))) }
    static func cardinals(_ values: [UInt32]) -> Q.Answer {
        .property(Q.Value(format: 32, bytes: values.flatMap { v in withUnsafeBytes(of: v) { Array($0) } }))
    }
    static let absent = Q.Answer.property(nil)

    static func describe(_ window: UInt32) -> [Q.Request] {
        [.property(window: window, .windowClass), .property(window: window, .netName),
         .property(window: window, .name), .property(window: window, .pid)]
    }

    /// No window manager, the input focus on `window`, which has no WM_CLASS:
    /// the query has just asked for the window's children.
    static func classlessFocus(_ window: UInt32) -> Q {
        var query = Q(root: root)
        _ = query.changed()
        _ = query.answered(absent)
        _ = query.answered(.focus(window: window))
        #expect(query.answered(absent).requests == [.tree(window: window)])
        return query
    }

    /// Feeds answers one by one, checking that nothing is asked before the last.
    static func answer(_ query: inout Q, _ answers: [Q.Answer]) -> Q.Step {
        var step = Q.Step()
        for (i, answer) in answers.enumerated() {
            step = query.answered(answer)
            if i < answers.count - 1 { #expect(step == Q.Step(), "asked or concluded before the batch's last answer") }
        }
        return step
    }

    @Test("a window manager's _NET_ACTIVE_WINDOW: the window is described in one batch of four requests")
    func activeWindow() {
        var query = Q(root: Self.root)
        #expect(query.changed().requests == [.property(window: Self.root, .activeWindow)])
        #expect(query.isAsking)
        #expect(query.answered(Self.cardinals([0x2a])).requests == Self.describe(0x2a))
        let step = Self.answer(&query, [Self.text("evince\0Evince\0"), Self.text("paper.pdf"), Self.text("old name"), Self.cardinals([4242])])
        #expect(step == Q.Step(outcome: .focused(window: 0x2a, AppInfo(id: "Evince", title: "paper.pdf", pid: 4242))))
        #expect(query.followsActiveWindow)
        #expect(!query.isAsking)
    }

    @Test("no _NET_WM_NAME: WM_NAME is the title; no pid: nil; _NET_ACTIVE_WINDOW None: nothing focused")
    func fallbacks() {
        var query = Q(root: Self.root)
        _ = query.changed()
        _ = query.answered(Self.cardinals([0x2b]))
        let step = Self.answer(&query, [Self.text("xterm\0XTerm\0"), Self.absent, Self.text("bash"), Self.absent])
        #expect(step.outcome == .focused(window: 0x2b, AppInfo(id: "XTerm", title: "bash", pid: nil)))

        _ = query.changed()
        #expect(query.answered(Self.cardinals([0])) == Q.Step(outcome: .nothing))
    }

    @Test("without a window manager: the input focus, a frame without WM_CLASS, its child that has one")
    func inputFocusThroughFrame() {
        var query = Q(root: Self.root)
        _ = query.changed()
        #expect(query.answered(Self.absent).requests == [.inputFocus])
        #expect(!query.followsActiveWindow)
        #expect(query.answered(.focus(window: 0x50)).requests == [.property(window: 0x50, .windowClass)])
        #expect(query.answered(Self.absent).requests == [.tree(window: 0x50)])
        #expect(query.answered(.tree(parent: Self.root, children: [0x51, 0x52])).requests
            == [.property(window: 0x51, .windowClass), .property(window: 0x52, .windowClass)])
        #expect(Self.answer(&query, [Self.absent, Self.text("calc\0XCalc\0")]).requests == Self.describe(0x52))
        let step = Self.answer(&query, [Self.text("calc\0XCalc\0"), Self.text("Calculator"), Self.absent, Self.absent])
        #expect(step.outcome == .focused(window: 0x52, AppInfo(id: "XCalc", title: "Calculator", pid: nil)))
    }

    @Test("the focus on a program's inner window: its children have no class either, so the parent is tried, once")
    func climbsOnce() {
        var query = Self.classlessFocus(0x61)
        #expect(query.answered(.tree(parent: 0x60, children: [])).requests == [.property(window: 0x60, .windowClass)])
        #expect(query.answered(Self.text("x\0Xmessage\0")).requests == Self.describe(0x60))

        // The parent has no class and no child with one: nothing, and no climbing further.
        _ = Self.answer(&query, [Self.absent, Self.absent, Self.absent, Self.absent])
        query = Self.classlessFocus(0x71)
        _ = query.answered(.tree(parent: 0x70, children: []))
        #expect(query.answered(Self.absent).requests == [.tree(window: 0x70)])
        #expect(query.answered(.tree(parent: Self.root, children: [0x72])).requests == [.property(window: 0x72, .windowClass)])
        #expect(query.answered(Self.absent) == Q.Step(outcome: .nothing))
    }

    @Test("focus None, PointerRoot or the root, or a window gone meanwhile: nothing focused, and the lookup ends")
    func nothingFocused() {
        for answer: Q.Answer in [.focus(window: 0), .focus(window: 1), .focus(window: Self.root), .refused] {
            var query = Q(root: Self.root)
            _ = query.changed()
            _ = query.answered(Self.absent)
            #expect(query.answered(answer) == Q.Step(outcome: .nothing))
            #expect(!query.isAsking)
        }
        var query = Self.classlessFocus(0x80)
        #expect(query.answered(.refused) == Q.Step(outcome: .nothing))
    }

    @Test("changes while a lookup runs are coalesced into one more lookup, started when it ends")
    func coalesces() {
        var query = Q(root: Self.root)
        _ = query.changed()
        for _ in 0..<50 { #expect(query.changed() == Q.Step()) }
        _ = query.answered(Self.cardinals([0x2a]))
        let step = Self.answer(&query, [Self.text("a\0A\0"), Self.absent, Self.absent, Self.absent])
        #expect(step.outcome == .focused(window: 0x2a, AppInfo(id: "A", title: "", pid: nil)))
        #expect(step.requests == [.property(window: Self.root, .activeWindow)])
        #expect(query.answered(Self.cardinals([0])) == Q.Step(outcome: .nothing))
        #expect(!query.isAsking)
    }

    @Test("a frame with a thousand children: only the first 64 are asked about")
    func boundedChildren() {
        var query = Self.classlessFocus(0x90)
        let step = query.answered(.tree(parent: Self.root, children: (0..<1000).map { 0x1000 + UInt32($0) }))
        #expect(step.requests.count == Q.childLimit)
    }

    @Test("a tree that names None, the root or the window itself among the children: they are not asked about, and never described")
    func implausibleChildren() {
        var query = Self.classlessFocus(0x90)
        let step = query.answered(.tree(parent: Self.root, children: [0, 1, Self.root, 0x90, 0x91]))
        #expect(step.requests == [.property(window: 0x91, .windowClass)])
        var onlyBogus = Self.classlessFocus(0x90)
        // Nothing plausible among them: the parent (the root here) is tried, which ends it.
        #expect(onlyBogus.answered(.tree(parent: Self.root, children: [0, Self.root, 0x90])) == Q.Step(outcome: .nothing))
        #expect(!onlyBogus.isAsking)
    }

    @Test("hostile values: a pid past Int32, a class without its second string, text in the wrong format")
    func hostileValues() {
        #expect(Q.app(class: Q.Value(format: 8, bytes: Array("only".utf8)), netName: nil, name: nil,
                      pid: Q.Value(format: 32, bytes: [0xff, 0xff, 0xff, 0xff])) == AppInfo(id: "only", title: "", pid: nil))
        #expect(Q.app(class: Q.Value(format: 32, bytes: [1, 2, 3, 4]), netName: Q.Value(format: 16, bytes: [65, 0]),
                      name: Q.Value(format: 8, bytes: [66, 0, 67]), pid: Q.Value(format: 32, bytes: [1, 2])) == AppInfo(id: "", title: "B", pid: nil))
        #expect(Q.windows(in: Q.Value(format: 32, bytes: [1, 0, 0, 0, 9])) == [1])
    }
}
