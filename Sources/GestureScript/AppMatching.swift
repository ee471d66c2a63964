import CLuaShim
import GestureContext
import GestureSystem

/// The rules' `app` options matched against the focused application's id,
/// within `AppMatchBudget`: both the rules file (slow patterns) and the
/// desktop (a window that changes its id without pause) decide how much
/// matching there is, so neither may decide how long the loop spends on it.
/// Rules are matched cheapest first (by what they took before, and with a
/// small allowance per find before a larger one); those the budget cannot
/// pay for now wait, not running meanwhile, and are matched as it fills
/// (`appMatchingDue`, `resumeAppMatching`). A waiting rule does not keep the
/// answer it had for the application before: that rule was for another one.
extension ScriptRuntime {
    /// Longer than any application id: X11 classes, Wayland app_ids and
    /// D-Bus names ("org.gnome.Evince", "firefox") are a few dozen bytes, and
    /// desktop file ids and D-Bus names stop at 255. A longer id is no
    /// application's: it matches no `app` option, and costs no matching.
    public static let maxAppIDBytes = 255

    /// When matching that waits for the budget can go on (the monotonic
    /// clock, as MonotonicClock); nil when nothing waits.
    public var appMatchingDue: Double? {
        appState.waiting ? appState.budget.due(toHold: AppMatchBudget.resumeAt) : nil
    }

    /// Goes on matching what waits, once the budget has filled enough; the
    /// host is told when rules start to run.
    public func resumeAppMatching(now: Double = MonotonicClock.now()) {
        guard appState.waiting else { return }
        appState.budget.fill(at: now)
        guard appState.budget.available >= AppMatchBudget.resumeAt else { return }
        let before = appState.active
        decideApps(now: now)
        if appState.active != before { rulesDidChange() }
    }

    /// A reload's rules go on with what the old ones left of the budget, so
    /// that reloading cannot refill it.
    public func takeAppMatchBudget(from old: ScriptRuntime) {
        appState.budget = old.appState.budget
    }

    /// What one find may take, tier by tier: every rule's pattern is tried
    /// with the least before any with more, so a cheap rule is decided before
    /// slow ones whatever their order (a slow find tried again with more
    /// wastes what it had, an eighth at most). The last is the most a find
    /// may take at all.
    static let appFindAllowances = [2_000, 10_000, maxDeviceMatchSteps]

    /// Decides what the budget allows, for the id focused now.
    func decideApps(now: Double) {
        followFocusedID()
        appState.pad(to: rules.count)
        appState.waiting = false
        guard appState.matchable, let id = appState.id else { return }
        var order = rules.indices.filter { rules[$0].app != nil && !rules[$0].removed && appState.decisions[$0] == .unknown }
        guard !order.isEmpty else { return }
        order.sort { (appState.cost[$0], $0) < (appState.cost[$1], $1) }
        appState.budget.fill(at: now)
        tiers: for tier in Self.appFindAllowances.indices {
            for index in order where appState.decisions[index] == .unknown && appState.progress[index].tier == tier {
                if decideApp(index, id) == nil { break tiers }
            }
        }
        let left = order.filter { appState.decisions[$0] == .unknown }
        appState.waiting = !left.isEmpty
        if !left.isEmpty { tellWaiting(left, id: id) }
    }

    /// The decisions follow `context.app`: a new id starts from what is
    /// known of it; the one it replaces keeps what was decided for it.
    private func followFocusedID() {
        let id = context.app?.id
        guard !appState.started || id != appState.id else { return }
        if appState.started, appState.matchable, let old = appState.id {
            appState.recent.keep(appState.decisions, for: old)
        }
        appState.started = true
        appState.id = id
        appState.matchable = id.map { $0.utf8.count <= Self.maxAppIDBytes } ?? false
        appState.decisions = []
        appState.progress = []
        guard let id else { return }
        guard appState.matchable else { return tellLongID(id) }
        appState.lowered = AppPatterns.lowercasedASCII(id)
        appState.decisions = appState.recent.take(id)
        appState.progress = Array(repeating: AppMatchProgress(), count: appState.decisions.count)
    }

    /// Matches the rule's patterns from where it had got, each find within
    /// its tier's allowance: the decision, `.unknown` when a find needs a
    /// higher tier, nil when the budget ran out.
    private func decideApp(_ index: Int, _ id: String) -> AppDecision? {
        guard let app = rules[index].app else { return .yes }
        while appState.progress[index].find < 2 * app.patterns.count {
            let find = appState.progress[index].find
            let tier = appState.progress[index].tier
            let allowance = min(Self.appFindAllowances[tier], appState.budget.available)
            guard allowance > 0 else { return wait(index) }
            switch findApp(app, find / 2, folded: find % 2 == 1, in: id, allowance: allowance, rule: index) {
            case .found:
                return decide(index, .yes)
            case .notFound:
                appState.progress[index].find += find % 2 == 1 ? 1 : 2
            case .tryFolded:
                appState.progress[index].find += 1
            case .tooManySteps where allowance < Self.appFindAllowances[tier]:
                return wait(index)
            case .tooManySteps where tier + 1 < Self.appFindAllowances.count:
                appState.progress[index].tier += 1
                appState.cost[index] = max(appState.cost[index], appState.progress[index].spent)
                return .unknown
            case .tooManySteps:
                tellSlow(rule: index, pattern: find % 2 == 1 ? app.folded[find / 2] : app.patterns[find / 2],
                         subject: find % 2 == 1 ? appState.lowered : id, of: .app)
                appState.progress[index].find += find % 2 == 1 ? 1 : 2
            }
        }
        return decide(index, .no)
    }

    private enum FindResult { case found, notFound, tryFolded, tooManySteps }

    /// One find of pattern `k`, as written or folded, charged to the budget.
    private func findApp(_ app: AppPatterns, _ k: Int, folded: Bool, in id: String, allowance: Int, rule index: Int) -> FindResult {
        let pattern = folded ? app.folded[k] : app.patterns[k]
        let subject = folded ? appState.lowered : id
        if pattern.isEmpty { return .notFound }
        if !folded {
            // A plain name matches itself even where it is no pattern of itself ("libreoffice-impress").
            charge(index, min(pattern.utf8.count, id.utf8.count) / 16 + 1)
            if app.lowered[k] == appState.lowered { return .found }
        }
        let (result, steps) = countedFind(pattern, in: subject, maxSteps: allowance)
        charge(index, steps)
        switch result {
        case .found: return .found
        case .tooManySteps: return .tooManySteps
        // Folding changes nothing for a lower-case pattern and id: the same find again would say the same.
        case .notFound where !folded: return pattern == app.folded[k] && id == appState.lowered ? .notFound : .tryFolded
        case .notFound, .malformed: return .notFound
        }
    }

    private func charge(_ index: Int, _ steps: Int) {
        appState.budget.spend(steps)
        appState.progress[index].spent += steps
        appState.stepsSpent += steps
    }

    private func decide(_ index: Int, _ decision: AppDecision) -> AppDecision {
        appState.decisions[index] = decision
        appState.cost[index] = appState.progress[index].spent
        return decision
    }

    private func wait(_ index: Int) -> AppDecision? {
        appState.cost[index] = max(appState.cost[index], appState.progress[index].spent)
        return nil
    }

    // MARK: Saying it, once

    private func tellWaiting(_ waiting: [Int], id: String) {
        guard !appState.toldWaiting, let first = waiting.first else { return }
        appState.toldWaiting = true
        let shown = waiting.dropFirst().prefix(3).map { rules[$0].definedAt }
        let more = waiting.count - 1 - shown.count
        var others = ""
        if !shown.isEmpty {
            others = " and of " + shown.joined(separator: ", ") + (more > 0 ? " and \(more) more rules" : "")
        }
        log("\(rules[first].definedAt): warning: matching the app patterns of this rule\(others) against \"\(Self.shortened(id))\" needs more steps than gesturemap gives a focus change (\(AppMatchBudget.capacity) at once, \(AppMatchBudget.perSecond) a second); these rules do not run until their turn comes; simplify their patterns (gesturemap check names slow ones) or list fewer")
    }

    private func tellLongID(_ id: String) {
        guard !appState.toldLongID, rules.contains(where: { $0.app != nil && !$0.removed }) else { return }
        appState.toldLongID = true
        host?.note("warning: the focused application's id is \(id.utf8.count) bytes long (\"\(Self.shortened(id))\"); no application id is longer than \(Self.maxAppIDBytes) bytes, so rules with an app option do not run while it has the focus")
    }

    /// The warning of a pattern that took more than `maxDeviceMatchSteps`,
    /// once per rule; past `maxSlowPatternWarnings` rules, one line for the rest.
    func tellSlow(rule index: Int, pattern: String, subject: String, of kind: PatternSubject) {
        guard appState.slowPatternsReported.insert(index).inserted else { return }
        appState.slowPatternsTold += 1
        guard appState.slowPatternsTold <= Self.maxSlowPatternWarnings else {
            if appState.slowPatternsTold == Self.maxSlowPatternWarnings + 1 {
                log("\(rules[index].definedAt): warning: this rule's \(kind.option) pattern \"\(pattern)\" and those of more rules take more than \(Self.maxDeviceMatchSteps) steps too; they are not named one by one (gesturemap check names them)")
            }
            return
        }
        log("\(rules[index].definedAt): warning: the \(kind.option) pattern \"\(pattern)\" took more than \(Self.maxDeviceMatchSteps) steps to match \"\(subject)\"; the rule does not match that \(kind.noun); simplify the pattern")
    }

    /// At most 60 bytes of `text`, whole characters, "…" when cut.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > 60 else { return text }
        var out = ""
        var used = 0
        for c in text {
            used += c.utf8.count
            if used > 60 { break }
            out.append(c)
        }
        return out + "…"
    }
}
