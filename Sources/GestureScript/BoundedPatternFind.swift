import CLuaShim

/// What `gm_pattern_find` found, which it says with 1, 0, -1 and -2.
enum PatternFind: Equatable {
    case found
    case notFound
    case malformed
    /// It gave up at its most steps: taken as no match.
    case tooManySteps

    init(_ code: Int32) {
        switch code {
        case 1: self = .found
        case -1: self = .malformed
        case -2: self = .tooManySteps
        default: self = .notFound
        }
    }
}

extension ScriptRuntime {
    /// What a rule's pattern is matched against.
    enum PatternSubject {
        case device, app

        var noun: String { self == .device ? "device" : "application" }
        var option: String { self == .device ? "device" : "app" }
    }

    /// A rule's `device` or `app` pattern found in `subject`, without entering
    /// Lua and within `maxDeviceMatchSteps`; too many steps is warned once per rule.
    func boundedFind(_ pattern: String, in subject: String, rule index: Int, of kind: PatternSubject) -> PatternFind {
        let (result, _) = countedFind(pattern, in: subject, maxSteps: Self.maxDeviceMatchSteps)
        if result == .tooManySteps { tellSlow(rule: index, pattern: pattern, subject: subject, of: kind) }
        return result
    }

    /// gm_pattern_find within `maxSteps`, and the steps it took.
    func countedFind(_ pattern: String, in subject: String, maxSteps: Int) -> (result: PatternFind, steps: Int) {
        var text = subject
        var patternText = pattern
        var steps = 0
        let result = text.withUTF8 { s in
            patternText.withUTF8 { p in
                s.withMemoryRebound(to: CChar.self) { s in
                    p.withMemoryRebound(to: CChar.self) { p in
                        gm_pattern_find_counted(s.baseAddress, s.count, p.baseAddress, p.count, maxSteps, &steps, nil, 0)
                    }
                }
            }
        }
        return (PatternFind(result), steps)
    }
}
