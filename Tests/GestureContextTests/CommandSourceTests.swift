import Foundation
import GestureContext
import Testing

@Suite("--app-command app source", .serialized)
struct CommandSourceTests {
    @Test("each line is the focused app from then on; tabs add a title and pid; a blank line is nothing focused")
    func lines() throws {
        let script = "printf 'firefox\\n'; sleep 0.3; printf 'evince\\tpaper.pdf\\t42\\n'; sleep 0.3; printf '\\n'; sleep 0.3; printf 'zathura\\n'; sleep 30"
        let tracker = AppTracker(choice: .command(script), report: { Issue.record("unexpected message: \($0)") })
        #expect(tracker.current == nil)
        var seen: [AppInfo?] = []
        tracker.onChange = { seen.append($0) }
        #expect(follow(tracker) { tracker.current?.id == "zathura" })
        #expect(seen == [AppInfo(id: "firefox"), AppInfo(id: "evince", title: "paper.pdf", pid: 42), nil, AppInfo(id: "zathura")])
    }

    @Test("a command that exits is said once with its status, then started again")
    func restarts() throws {
        var messages: [String] = []
        let tracker = AppTracker(choice: .command("echo kiosk; exit 3"), report: { messages.append($0) })
        #expect(follow(tracker) { !messages.isEmpty })
        #expect(messages == ["app source command: the command \"echo kiosk; exit 3\" exited with status 3; trying again in 500 ms"])
        #expect(tracker.current == nil)
        // It comes back: the next run's first line counts again.
        #expect(follow(tracker, upTo: 3) { tracker.current?.id == "kiosk" })
    }

    @Test("a line longer than any id is ignored to its end, its tail never taken for an id, and said once; the lines around it count")
    func overlongLine() throws {
        // 100 KB of x, then "firefox", in one line; then the same again; then evince.
        let long = "head -c 100000 /dev/zero | tr '\\0' x; printf 'firefox\\n'"
        let script = "printf 'kiosk\\n'; sleep 0.3; \(long); sleep 0.3; \(long); sleep 0.3; printf 'evince\\n'; sleep 30"
        var messages: [String] = []
        let tracker = AppTracker(choice: .command(script), report: { messages.append($0) })
        var seen: [AppInfo?] = []
        tracker.onChange = { seen.append($0) }
        #expect(follow(tracker) { tracker.current?.id == "evince" })
        #expect(seen == [AppInfo(id: "kiosk"), AppInfo(id: "evince")])
        #expect(messages == ["app source command: the command \"\(script)\" printed a line longer than 64 KB, which no application id is; ignored it (and any more such lines)"])
    }
}
