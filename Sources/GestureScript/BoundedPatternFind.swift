import CLuaShim

extension ScriptRuntime {
    /// What a rule's pattern is matched against.
    enum PatternSubject {
        case device, app

        var noun: String { self == .device ? "device" : "application" }
        var option: String { self == .device ? "device" : "app" }
    }

    /// A rule's `device` or `app` pattern found in `subject`, without entering
    /// Lua and within `maxDeviceMatchSteps`: 1 found, 0 not, -2 too many steps
    /// (warned once per rule, and taken as no match).
    func boundedFind(_ pattern: String, in subject: String, rule index: Int, of kind: PatternSubject) -> Int32 {
        var text = subject
        var patternText = pattern
        let result = text.withUTF8 { s in
            patternText.withUTF8 { p in
                s.withMemoryRebound(to: CChar.self) { s in
                    p.withMemoryRebound(to: CChar.self) { p in
                        gm_pattern_find(s.baseAddress, s.count, p.baseAddress, p.count, Self.maxDeviceMatchSteps, nil, 0)
                    }
                }
            }
        }
        if result == -2 { tellSlow(rule: index, pattern: pattern, subject: subject, of: kind) }
        return result
    }
}
