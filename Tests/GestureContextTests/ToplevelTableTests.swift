import CContext
import Testing

/// The wlroots source's table of toplevels, fed as a compositor (and the
/// programs whose windows it lists) could: limits and the protocol's `done`.
@Suite("wlroots toplevels as a compositor reports them")
struct ToplevelTableTests {
    /// Keys stand for Wayland proxies: any distinct addresses do.
    private static func key(_ n: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: 0x1000 + n * 16)!
    }

    private static func windows(_ table: OpaquePointer) -> [gm_window] {
        var out = [gm_window](repeating: gm_window(), count: 8)
        let count = Int(gm_toplevels_list(table, &out, Int32(out.count)))
        return Array(out.prefix(min(count, out.count)))
    }

    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

    @Test("title, app id and activation take effect at done, and only a real change is reported")
    func doneApplies() throws {
        let table = try #require(gm_toplevels_new())
        defer { gm_toplevels_free(table) }
        #expect(gm_toplevels_add(table, Self.key(1)) == 1)
        gm_toplevels_title(table, Self.key(1), "Inbox")
        gm_toplevels_app_id(table, Self.key(1), "thunderbird")
        var states: [UInt32] = [1, UInt32(GM_TOPLEVEL_STATE_ACTIVATED)]
        gm_toplevels_state(table, Self.key(1), &states, states.count)
        #expect(Self.text(Self.windows(table)[0].id) == "", "nothing before done")
        gm_toplevels_done(table, Self.key(1))
        #expect(gm_toplevels_take_changed(table) == 1)
        let listed = Self.windows(table)[0]
        #expect(Self.text(listed.id) == "thunderbird")
        #expect(Self.text(listed.title) == "Inbox")
        #expect(listed.focused == 1)
        #expect(listed.pid == -1)
        gm_toplevels_done(table, Self.key(1))
        #expect(gm_toplevels_take_changed(table) == 0, "a done that changes nothing is not news")
        // Events for a toplevel never announced (or already closed) change nothing.
        gm_toplevels_title(table, Self.key(9), "ghost")
        gm_toplevels_done(table, Self.key(9))
        #expect(gm_toplevels_remove(table, Self.key(9)) == 0)
        #expect(gm_toplevels_take_changed(table) == 0)
        #expect(gm_toplevels_remove(table, Self.key(1)) == 1)
        #expect(gm_toplevels_count(table) == 0)
        #expect(gm_toplevels_take_changed(table) == 1)
    }

    @Test("a window title of 100 KB is kept cut to what is listed, never inside a UTF-8 sequence")
    func longTitleIsCut() throws {
        let table = try #require(gm_toplevels_new())
        defer { gm_toplevels_free(table) }
        #expect(gm_toplevels_add(table, Self.key(1)) == 1)
        // "é" is two bytes: 511 bytes of room end inside one of them.
        let title = String(repeating: "é", count: 50_000)
        gm_toplevels_title(table, Self.key(1), title)
        gm_toplevels_app_id(table, Self.key(1), String(repeating: "a", count: 10_000))
        gm_toplevels_done(table, Self.key(1))
        let listed = Self.windows(table)[0]
        #expect(Self.text(listed.title) == String(repeating: "é", count: 255))
        #expect(Self.text(listed.id) == String(repeating: "a", count: 255))
    }

    @Test("past 4,096 toplevels a new one is refused (the source lets it go), and a closed one makes room")
    func tableIsCapped() throws {
        let table = try #require(gm_toplevels_new())
        defer { gm_toplevels_free(table) }
        let limit = Int(GM_TOPLEVEL_LIMIT)
        for n in 0..<limit { #expect(gm_toplevels_add(table, Self.key(n)) == 1) }
        #expect(gm_toplevels_add(table, Self.key(limit)) == 0)
        #expect(gm_toplevels_add(table, Self.key(3)) == 0, "a key already there is not added twice")
        #expect(gm_toplevels_count(table) == Int32(limit))
        #expect(gm_toplevels_remove(table, Self.key(7)) == 1)
        #expect(gm_toplevels_add(table, Self.key(limit)) == 1)
        #expect(gm_toplevels_count(table) == Int32(limit))
    }
}
