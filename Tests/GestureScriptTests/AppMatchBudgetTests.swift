import GestureContext
@testable import GestureScript
import Testing

/// The budget of steps that matching `app` patterns may take, counted in
/// steps on a clock the tests give: no test here reads the time.
@Suite("App patterns within a budget of steps")
struct AppMatchBudgetTests {
    /// Rules whose one pattern takes the matcher's whole allowance on any id
    /// of 40 bytes or more, each a little different so none hides another.
    static func slowRules(_ count: Int) -> String {
        (1...count).map { #"on("tap", function(g) end, { app = "(.-)(.-)(.-)(.-)\#($0)!" })"# }.joined(separator: "\n")
    }

    static func id(_ n: Int) -> AppInfo {
        AppInfo(id: "window-\(n)-abcdefghijklmnopqrstuvwxyzabcdefghij")
    }

    /// What one find may take past the steps it was allowed: the matcher
    /// looks at its count every 1024 steps, and reads the pattern first.
    static let overshoot = 1024 + 64

    @Test("the bucket starts full, fills at its rate up to its capacity, and earns nothing while the clock goes back")
    func bucket() {
        var budget = AppMatchBudget()
        budget.fill(at: 10)
        #expect(budget.available == AppMatchBudget.capacity)
        budget.spend(AppMatchBudget.capacity + 500)
        #expect(budget.available == -500)
        #expect(budget.due(toHold: AppMatchBudget.resumeAt) == 10 + (Double(AppMatchBudget.resumeAt + 500) + 0.5) / Double(AppMatchBudget.perSecond))
        budget.fill(at: 9)
        #expect(budget.available == -500)
        budget.fill(at: 10.1)
        #expect(budget.available == AppMatchBudget.perSecond / 10 - 500)
        budget.fill(at: 1000)
        #expect(budget.available == AppMatchBudget.capacity)
    }

    @Test("fills a microsecond apart lose no step to rounding")
    func smallFills() {
        var budget = AppMatchBudget()
        budget.fill(at: 0)
        budget.spend(AppMatchBudget.capacity)
        for k in 1...2500 { budget.fill(at: Double(k) * 0.4e-6) }
        #expect(budget.available == 1000)
    }

    @Test("one focus change spends at most the bucket; a hundred more, 10 ms apart, at most what 1 s earns")
    func changesCannotBuyMore() throws {
        let (runtime, _) = try loadRules(Self.slowRules(200))
        runtime.setApp(Self.id(0), now: 0)
        let first = runtime.appState.stepsSpent
        #expect(first >= AppMatchBudget.capacity)
        #expect(first <= AppMatchBudget.capacity + Self.overshoot)
        for n in 1...100 { runtime.setApp(Self.id(n), now: Double(n) * 0.01) }
        let more = runtime.appState.stepsSpent - first
        #expect(more <= AppMatchBudget.perSecond + 100 * Self.overshoot, "\(more) steps")
        // Rules not matched yet do not run: they were written for other applications.
        #expect(runtime.coreRules.allSatisfy { !$0.isActive })
    }

    @Test("a cheap rule defined after slow ones is decided at once")
    func cheapFirst() throws {
        let (runtime, _) = try loadRules(Self.slowRules(200) + "\n" + #"on("2-finger tap", function(g) end, { app = "window" })"#)
        runtime.setApp(Self.id(0), now: 0)
        #expect(runtime.appMatchingDue != nil)
        #expect(runtime.coreRules.map(\.isActive).last == true)
    }

    @Test("while the window changes its id every 50 ms, a cheap rule after 500 slow ones is decided for every id")
    func cheapFirstEveryChange() throws {
        let (runtime, _) = try loadRules(Self.slowRules(500) + "\n" + #"on("2-finger tap", function(g) end, { app = "^window%-" })"#)
        var decided: [Bool] = []
        for n in 0..<40 {
            runtime.setApp(Self.id(n), now: Double(n) * 0.05)
            decided.append(runtime.coreRules.last?.isActive == true)
        }
        #expect(decided == Array(repeating: true, count: 40))
    }

    @Test("rules that wait are matched as the bucket fills, and the host is told once they run")
    func waitingRulesResume() throws {
        let (runtime, host) = try loadRules(Self.slowRules(30) + "\n" + #"on("2-finger tap", function(g) end, { app = { "(.-)(.-)(.-)(.-)x!", "^window%-7%-" } })"#)
        runtime.setApp(Self.id(7), now: 0)
        #expect(runtime.coreRules.map(\.isActive).last == false)
        let told = host.rulesChanges
        var now = 0.0
        var resumes = 0
        while let due = runtime.appMatchingDue, resumes < 100 {
            #expect(due > now)
            now = due
            let before = runtime.appState.stepsSpent
            runtime.resumeAppMatching(now: now)
            #expect(runtime.appState.stepsSpent - before <= AppMatchBudget.resumeAt + Self.overshoot)
            resumes += 1
        }
        #expect(runtime.appMatchingDue == nil)
        #expect(runtime.coreRules.map(\.isActive).last == true)
        #expect(host.rulesChanges == told + 1)
        // All it took: the bucket, and what the clock earned since.
        #expect(runtime.appState.stepsSpent <= AppMatchBudget.capacity + Int(now * Double(AppMatchBudget.perSecond)) + Self.overshoot)
        // Said once, naming the rules that wait and how to fix them.
        let waiting = host.messages.filter { $0.contains("needs more steps than gesturemap gives a focus change") }
        #expect(waiting.count == 1)
        #expect(waiting.first?.hasPrefix("rules.lua:") == true)
        #expect(waiting.first?.contains(": warning: matching the app patterns of this rule and of rules.lua:") == true, "\(waiting)")
        #expect(waiting.first?.hasSuffix("against \"window-7-abcdefghijklmnopqrstuvwxyzabcdefghij\" needs more steps than gesturemap gives a focus change (2000000 at once, 1000000 a second); these rules do not run until their turn comes; simplify their patterns (gesturemap check names slow ones) or list fewer") == true, "\(waiting)")
    }

    @Test("while running, a slow pattern is said once per rule, for ten rules, then one line for the rest")
    func slowSaidForTenRules() throws {
        // Half of them are not measured at load: those are met while running.
        let (runtime, host) = try loadRules(Self.slowRules(100))
        runtime.setApp(Self.id(0), now: 0)
        var resumes = 0
        while let due = runtime.appMatchingDue, resumes < 200 {
            runtime.resumeAppMatching(now: due)
            resumes += 1
        }
        #expect(runtime.appMatchingDue == nil)
        #expect(runtime.coreRules.allSatisfy { !$0.isActive })
        let named = host.messages.filter { $0.contains(#"steps to match "window-0-abcdefghijklmnopqrstuvwxyzabcdefghij"; the rule does not match that application; simplify the pattern"#) }
        #expect(named.count == 10, "\(host.messages)")
        let rest = host.messages.filter { $0.hasSuffix("and those of more rules take more than 100000 steps too; they are not named one by one (gesturemap check names them)") }
        #expect(rest.count == 1, "\(host.messages)")
    }

    @Test("a new title, or an id focused lately, costs no matching; 64 ids are kept, the oldest going first")
    func remembered() throws {
        let (runtime, host) = try loadRules(#"on("tap", function(g) end, { app = "firefox" })"#)
        runtime.setApp(AppInfo(id: "firefox", title: "one"), now: 0)
        let told = host.rulesChanges
        let spent = runtime.appState.stepsSpent
        #expect(spent > 0)
        runtime.setApp(AppInfo(id: "firefox", title: "two"), now: 0)
        #expect(runtime.appState.stepsSpent == spent)
        #expect(host.rulesChanges == told)
        for n in 0..<63 { runtime.setApp(AppInfo(id: "other-\(n)"), now: 0) }
        let afterOthers = runtime.appState.stepsSpent
        runtime.setApp(AppInfo(id: "firefox"), now: 0)
        #expect(runtime.appState.stepsSpent == afterOthers)
        #expect(runtime.coreRules.map(\.isActive) == [true])
        // Firefox is recent again: the 64 ids after it push out the others.
        for n in 63..<128 { runtime.setApp(AppInfo(id: "other-\(n)"), now: 0) }
        let pushed = runtime.appState.stepsSpent
        runtime.setApp(AppInfo(id: "firefox"), now: 0)
        #expect(runtime.appState.stepsSpent > pushed)
        runtime.setApp(AppInfo(id: "other-126"), now: 0)
        runtime.setApp(AppInfo(id: "other-100"), now: 0)
        let recent = runtime.appState.stepsSpent
        runtime.setApp(AppInfo(id: "firefox"), now: 0)
        #expect(runtime.appState.stepsSpent == recent)
    }

    @Test("an id longer than 255 bytes matches no app rule and costs no matching; said once")
    func longID() throws {
        let (runtime, host) = try loadRules(#"on("tap", function(g) end, { app = "x" })"#)
        let long = String(repeating: "x", count: 256)
        runtime.setApp(AppInfo(id: long), now: 0)
        runtime.setApp(AppInfo(id: long + "y"), now: 0)
        #expect(runtime.appState.stepsSpent == 0)
        #expect(runtime.coreRules.map(\.isActive) == [false])
        #expect(host.messages == ["gesturemap: warning: the focused application's id is 256 bytes long (\"\(String(repeating: "x", count: 60))…\"); no application id is longer than 255 bytes, so rules with an app option do not run while it has the focus"])
        runtime.setApp(AppInfo(id: String(repeating: "x", count: 255)), now: 0)
        #expect(runtime.coreRules.map(\.isActive) == [true])
    }

    @Test("a reload goes on with the budget the old rules left")
    func reloadKeepsBudget() throws {
        let (old, _) = try loadRules(Self.slowRules(40))
        old.setApp(Self.id(0), now: 0)
        let (fresh, _) = try loadRules(Self.slowRules(40))
        fresh.takeAppMatchBudget(from: old)
        fresh.setApp(Self.id(0), now: 0)
        #expect(fresh.appState.stepsSpent <= Self.overshoot)
    }

    @Test("load and check name an app pattern that gives up on a 255-byte id, at its rule; real patterns pass")
    func slowAtLoad() throws {
        let (runtime, _) = try loadRules("""
        on("tap", function(g) end, { app = { "firefox", "^org%.gnome%.", ".*term.*", "libreoffice-impress", "[Ee]vince", "%a+%.%a+" } })
        on("2-finger tap", function(g) end, { app = { "zathura", "a*a*a*a*b", "x.-x.-x.-y" } })
        """)
        #expect(runtime.warnings == [
            #"rules.lua:2: warning: the app pattern "a*a*a*a*b" takes more than 100000 steps to match an id of 255 "a" characters, where matching gives up and the rule does not match; each focus change pays for it; several *, + or - that can take the same characters make a pattern slow: simplify it ("firefox", "^org%.gnome%." or "term.*" need a few steps)"#,
        ])
    }

    @Test("a file of many slow patterns: ten are named, the rest counted, and where measuring stopped")
    func manySlowAtLoad() throws {
        let (runtime, _) = try loadRules(Self.slowRules(100))
        #expect(runtime.warnings.count == 11)
        #expect(runtime.warnings.first?.hasPrefix(#"rules.lua:1: warning: the app pattern "(.-)(.-)(.-)(.-)1!" takes more than 100000 steps"#) == true)
        #expect(runtime.warnings.last?.hasPrefix("rules.lua: warning: ") == true)
        #expect(runtime.warnings.last?.contains(" more rules have slow app patterns; the app patterns from rules.lua:") == true)
        #expect(runtime.warnings.last?.hasSuffix(" on were not measured (a load measures for 5000000 steps)") == true, "\(runtime.warnings)")
    }
}
