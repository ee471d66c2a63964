/// App patterns measured when the rules load (for `check`, and for every
/// load): each distinct pattern is matched against ids made to be hard for
/// it, the longest id matched (`maxAppIDBytes`) of one character it can take.
/// Patterns slow in the backtracking way (several `*`, `+` or `-` that can
/// share the same letters) are slowest on such runs. One that gives up there
/// would give up on a real id as long, and is a warning at its rule; what
/// each rule took is where it starts in the order rules are matched.
extension ScriptRuntime {
    /// Steps one load may spend measuring, all told (some 30 ms): a rules file
    /// of many slow patterns has the first of them named, not all.
    static let measuringSteps = 5_000_000
    /// Rules named for slow patterns before the rest are only counted.
    static let maxSlowPatternWarnings = 10

    struct PatternMeasure {
        /// The most steps one subject took, as written and folded.
        var steps = 0
        /// The character whose run made it give up, if one did.
        var slowOn: UInt8?
    }

    func measureAppPatterns() {
        appState.pad(to: rules.count)
        var measured: [String: PatternMeasure] = [:]
        var left = Self.measuringSteps
        var slowRules: [Int] = []
        var firstUnmeasured: String?
        for index in rules.indices where !rules[index].removed {
            guard let app = rules[index].app else { continue }
            var cost = 0
            var slow: (pattern: String, byte: UInt8)?
            for (k, pattern) in app.patterns.enumerated() where !pattern.isEmpty {
                let measure: PatternMeasure
                if let known = measured[pattern] {
                    measure = known
                } else if left > 0 {
                    measure = self.measure(pattern, folded: app.folded[k], within: &left)
                    measured[pattern] = measure
                } else {
                    if firstUnmeasured == nil { firstUnmeasured = rules[index].definedAt }
                    continue
                }
                cost += measure.steps
                // One slow pattern is enough to name the rule, and to put it last.
                if let byte = measure.slowOn {
                    slow = (pattern, byte)
                    break
                }
            }
            appState.cost[index] = cost
            guard let slow else { continue }
            slowRules.append(index)
            // Said here, not again when the rule meets such an id.
            appState.slowPatternsReported.insert(index)
            guard slowRules.count <= Self.maxSlowPatternWarnings else { continue }
            let letter = String(decoding: [slow.byte], as: UTF8.self)
            load.warnings.append("\(rules[index].definedAt): warning: the app pattern \"\(slow.pattern)\" takes more than \(Self.maxDeviceMatchSteps) steps to match an id of \(Self.maxAppIDBytes) \"\(letter)\" characters, where matching gives up and the rule does not match; each focus change pays for it; several *, + or - that can take the same characters make a pattern slow: simplify it (\"firefox\", \"^org%.gnome%.\" or \"term.*\" need a few steps)")
        }
        guard slowRules.count > Self.maxSlowPatternWarnings || (!slowRules.isEmpty && firstUnmeasured != nil) else { return }
        let file = load.sourceFiles.first ?? String(rules[slowRules[0]].definedAt.split(separator: ":").first ?? "rules")
        var parts: [String] = []
        let more = slowRules.count - min(slowRules.count, Self.maxSlowPatternWarnings)
        if more > 0 { parts.append("\(more) more rules have slow app patterns") }
        if let firstUnmeasured {
            parts.append("the app patterns from \(firstUnmeasured) on were not measured (a load measures for \(Self.measuringSteps) steps)")
        }
        load.warnings.append("\(file): warning: " + parts.joined(separator: "; "))
    }

    /// `pattern` (and its `folded` form) against runs of the characters it
    /// could take, until one makes it give up or `left` runs out.
    private func measure(_ pattern: String, folded: String, within left: inout Int) -> PatternMeasure {
        var result = PatternMeasure()
        for byte in Self.hardCharacters(for: pattern) where left > 0 {
            let subject = String(decoding: [UInt8](repeating: byte, count: Self.maxAppIDBytes), as: UTF8.self)
            let lowered = AppPatterns.lowercasedASCII(subject)
            var (found, steps) = countedFind(pattern, in: subject, maxSteps: Self.maxDeviceMatchSteps)
            if found == .notFound, folded != pattern || lowered != subject {
                let (again, more) = countedFind(folded, in: lowered, maxSteps: Self.maxDeviceMatchSteps)
                found = again
                steps += more
            }
            left -= steps
            result.steps = max(result.steps, steps)
            if found == .tooManySteps {
                result.slowOn = byte
                break
            }
        }
        return result
    }

    /// The characters a pattern names (a set's members, an escaped
    /// punctuation mark), then some that classes and `.` take.
    static func hardCharacters(for pattern: String) -> [UInt8] {
        var out: [UInt8] = []
        var escaped = false
        for byte in pattern.utf8 {
            defer { escaped = !escaped && byte == UInt8(ascii: "%") }
            guard byte > 0x20 && byte < 0x7f, out.count < 6, !out.contains(byte) else { continue }
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            if escaped ? letter : Self.patternSpecials.contains(byte) { continue }
            out.append(byte)
        }
        for byte in "a0.-".utf8 where !out.contains(byte) { out.append(byte) }
        return out
    }

    private static let patternSpecials = Set("^$*+?.()[]%-".utf8)
}
