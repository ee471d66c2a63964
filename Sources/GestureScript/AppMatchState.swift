/// Where matching the rules' `app` options against the focused application's
/// id stands. Arrays are indexed by rule and padded as rules come.
struct AppMatchState {
    /// Whether `id` has been taken from the context yet.
    var started = false
    /// The id the decisions are for; nil when no application has the focus.
    var id: String?
    /// Whether `id` is matched at all: not when nothing has the focus, nor
    /// when it is longer than any application id.
    var matchable = false
    /// `id` with its ASCII letters lower-cased, for the folded patterns.
    var lowered = ""
    var decisions: [AppDecision] = []
    /// Per rule: how far matching `id` has got.
    var progress: [AppMatchProgress] = []
    /// Per rule: the steps its last decision took, or what it has taken so
    /// far while it waits; at first, what the load measured. Rules are
    /// matched cheapest first, so slow patterns cannot keep the others waiting.
    var cost: [Int] = []
    var recent = RecentAppDecisions()
    var budget = AppMatchBudget()
    /// Some rule waits for the budget to fill.
    var waiting = false
    var toldWaiting = false
    var toldLongID = false
    /// Rules whose device or app pattern was reported as taking too many steps.
    var slowPatternsReported: Set<Int> = []
    /// Of them, those said while running (AppMatching.swift's tellSlow).
    var slowPatternsTold = 0
    /// Every step spent, for tests that count work rather than time it.
    var stepsSpent = 0

    /// Makes room for rules defined since the arrays were last padded.
    mutating func pad(to count: Int) {
        guard decisions.count < count else { return }
        let more = count - decisions.count
        decisions += Array(repeating: matchable ? .unknown : .no, count: more)
        progress += Array(repeating: AppMatchProgress(), count: more)
        if cost.count < count { cost += Array(repeating: 0, count: count - cost.count) }
    }

    /// The rules active for `id`, to tell whether a change changed any.
    var active: [Int] { decisions.indices.filter { decisions[$0] == .yes } }
}

/// How far one rule's patterns have been matched against the focused id.
struct AppMatchProgress {
    /// The next find: two a pattern (as written, then folded); the finds
    /// before it did not match.
    var find = 0
    /// Its allowance, an index in `ScriptRuntime.appFindAllowances`.
    var tier = 0
    /// Steps spent on the id.
    var spent = 0
}
