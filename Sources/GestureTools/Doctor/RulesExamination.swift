import Glibc
import GestureCore
import GestureEngine
import GestureScript
import GestureSystem

/// What the rules need of the system: uinput for key(), the pointer, the
/// touchpad and sharing; the programs they run.
public struct RuleUses: Equatable, Sendable {
    public var key = false, pointer = false, touchpad = false, share = false
    public var programs: [String] = []

    var uinputReasons: [String] {
        [key ? "key()" : nil, pointer ? "pointer" : nil, touchpad ? "touchpad" : nil, share ? "share" : nil].compactMap { $0 }
    }
}

/// The rules a run would load: where from, whether they load (as `check`
/// says), their gestures and claims, and what they use.
struct RulesExamination {
    var findings: [DoctorFinding] = []
    var rules: [GestureRule] = []
    var uses = RuleUses()
    var shares = false
    var claimFingers: Int?

    init(path given: String?, environment: [String: String]) {
        let places = RulesLookup.places(environment: environment)
        guard let path = given ?? RulesLookup.find(environment: environment) else {
            let folder = places.first.map { String($0.dropLast("/rules.lua".count)) } ?? "~/.config/gesturemap"
            let start = InstalledFiles.example("pager.lua").map { example in
                "mkdir -p \(folder) && cp \(example) \(folder)/rules.lua   # a start: the other examples are beside it"
            } ?? "mkdir -p \(folder) and write rules.lua there (the examples in gesturemap's source are a start)"
            findings.append(DoctorFinding(.note, "no rules file at \(places.joined(separator: " or ")): run uses the built-in rules (swipes to next_page and prev_page)",
                                          fix: start))
            return
        }
        findings.append(DoctorFinding(.ok, given != nil ? "\(path) (--rules)" : "\(path) (found there; looked in \(places.joined(separator: ", then ")))"))
        let host = SilentHost()
        guard let runtime = ScriptRuntime(host: host, options: ScriptOptions()) else {
            findings.append(DoctorFinding(.problem, "no Lua state could be made to load them"))
            return
        }
        do {
            try runtime.load(path: path)
        } catch {
            findings.append(DoctorFinding(.problem, "they do not load:\n" + error.problems.joined(separator: "\n"),
                                          fix: "gesturemap check \(path) says the same; fix each line it names"))
            return
        }
        for warning in runtime.warnings { findings.append(DoctorFinding(.warning, warning)) }
        rules = runtime.coreRules()
        shares = runtime.thresholds.isOn(.share)
        let claim = Int(exactly: runtime.thresholds[.claimFingers].rounded()) ?? 0
        claimFingers = claim > 0 ? claim : nil
        uses.key = runtime.firstCall(ofGlobal: "key") != nil
        uses.pointer = runtime.firstCall(ofGlobal: "pointer", member: true) != nil
        uses.touchpad = runtime.firstCall(ofGlobal: "touchpad", member: true) != nil
        uses.share = shares
        uses.programs = ProgramNames.called(in: runtime.sourceFiles.compactMap { file in
            if case .success(let bytes) = BoundedFile.read(file, limit: 4 << 20) { return bytes } else { return nil }
        })
        findings.append(DoctorFinding(.ok, "they load: \(rules.count) rule\(rules.count == 1 ? "" : "s")"
            + (uses.uinputReasons.isEmpty ? "" : "; they use " + uses.uinputReasons.joined(separator: ", "))))
        for program in uses.programs {
            if ProgramNames.onPath(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") {
                findings.append(DoctorFinding(.ok, "runs \(program): installed"))
            } else {
                findings.append(DoctorFinding(.warning, "runs \(program), which is not on PATH here", fix: "install it (apt-get install ... ), or give its full path in the rules"))
            }
        }
    }
}

/// A host that keeps nothing: rules loaded to be looked at (`check`, `doctor`)
/// run no action, and what they log while loading is not what is reported.
final class SilentHost: ScriptHost {
    func emit(line: String) {}
    func log(_ message: String) {}
}

/// The programs `exec{...}` and `shell("...")` name in the rules' text, as far
/// as reading it can tell (the first word of a literal).
enum ProgramNames {
    static func called(in sources: [[UInt8]]) -> [String] {
        var names: [String] = []
        for source in sources {
            let text = Array(String(decoding: source, as: UTF8.self))
            for call in [Array("exec"), Array("shell")] {
                var i = 0
                while i + call.count <= text.count {
                    defer { i += 1 }
                    guard Array(text[i..<i + call.count]) == call, i == 0 || !(text[i - 1].isLetter || text[i - 1].isNumber || text[i - 1] == "_" || text[i - 1] == ".") else { continue }
                    var j = i + call.count
                    while j < text.count, " ({".contains(text[j]) { j += 1 }
                    guard j < text.count, text[j] == "\"" || text[j] == "'" else { continue }
                    let quote = text[j]
                    var word = ""
                    j += 1
                    while j < text.count, text[j] != quote, text[j] != " ", text[j] != "\n" { word.append(text[j]); j += 1 }
                    if !word.isEmpty, !names.contains(word), word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./+".contains($0) }) { names.append(word) }
                }
            }
        }
        return names
    }

    static func onPath(_ program: String, path: String) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
