// Fuzz target: `gesturemap import`'s readers (Easystroke's actions file and
// preferences, fusuma, Touchégg, libinput-gestures) and the Lua they write,
// loaded by the real ScriptRuntime as `gesturemap check` loads it.
import GestureEngine
import GestureScript
import GestureTools

/// The input's first byte: its low three bits pick the reader (5 to 7: the
/// format detected from the content, as `import` does without --format), its
/// fourth bit a variant (a shapes file given for Easystroke, fusuma 2's pinch).
enum ImportReader: UInt8 {
    case easystroke, fusuma, touchegg, libinputGestures, easystrokePreferences, detected
}

final class QuietHost: ScriptHost {
    func emit(line: String) {}
    func log(_ message: String) {}
}

/// An actions file that binds strokes of the preferences' button, for the
/// preferences reader: whatever button it gives must still make rules that load.
let actionsForPreferences = Array("""
22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 2 0
0 0 5 1 0 0 0 1 1 0 1 0 0 1 1 0 1 10 1 5 2 0 0 2 1 0 1 0.5 0.5 0.0 0.5 0 0 0 32768 0 1 14 7 Command 1 0 3 0 0 4 back 0 
5 4 5 1 1 10 6 3 1 0.5 0.5 0.2 0.1 0.9 0.1 0 0 0 32768 14 7 5 swoop 0 
7 Default 0 0 0 1 0 0 0 0 0
""".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let control = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let variant = control & 0x08 != 0
    let reader = ImportReader(rawValue: min(control & 0x07, 5)) ?? .detected
    switch reader {
    case .easystroke:
        checkEasystroke(EasystrokeImport.read(body, shapesLive: variant), input: body)
    case .easystrokePreferences:
        let button = EasystrokePreferences.read(body, path: "fuzz/preferences-0.5.5")
        for warning in button.warnings where warning.isEmpty || warning.contains("\n") {
            fatalError("preferences: a warning that is not one line: \(warning.debugDescription)")
        }
        if button.source.isEmpty { fatalError("preferences: no source for button \(button.number)") }
        let result = EasystrokeImport.read(actionsForPreferences, strokeButton: button.number,
                                           strokeButtonSource: button.source, shapesLive: variant)
        if result.hasErrors { fatalError("preferences: button \(button.number) makes the fixed actions file fail: \(result.diagnostics)") }
        checkEasystroke(result, input: body)
    default:
        let given: ImportFormat? = [.fusuma: .fusuma, .touchegg: .touchegg, .libinputGestures: .libinputGestures][reader]
        switch ConfigImporter.read(body, name: "fuzz.conf", format: given, fusuma: variant ? .two : .three) {
        case .failure(.easystroke):
            checkEasystroke(EasystrokeImport.read(body, shapesLive: variant), input: body)
        case .failure(let failure):
            if failure.message.isEmpty { fatalError("import: a refusal without a message") }
        case .success(let result):
            checkConfig(result, input: body)
        }
    }
    return 0
}

func checkConfig(_ result: ImportResult, input: [UInt8]) {
    checkDiagnostics(result.diagnostics, input: input)
    if result.bindings.count > ImportResult.maxBindings {
        fatalError("import: \(result.bindings.count) bindings kept, more than \(ImportResult.maxBindings)")
    }
    let lua = LuaRulesWriter.write(result, sourceName: "fuzz.conf")
    let rules = load(lua, shapes: nil)
    let live = result.bindings.contains { $0.isLive }
    if result.hasErrors && rules > 0 { fatalError("import: a refused file (\(result.diagnostics)) still defines \(rules) rules:\n\(lua)") }
    if live && rules == 0 { fatalError("import: live bindings, but the Lua defines no rule:\n\(lua)") }
}

func checkEasystroke(_ result: EasystrokeImport, input: [UInt8]) {
    checkDiagnostics(result.diagnostics, input: input)
    let live = result.rules.filter(\.isLive).count
    if result.hasErrors && live > 0 { fatalError("easystroke: \(live) live rules in a refused file: \(result.diagnostics)") }
    if !result.shapesLive && result.rules.contains(where: { $0.isLive && { if case .shape? = $0.gesture { return true } else { return false } }($0) }) {
        fatalError("easystroke: a live shape rule without a shapes file")
    }
    var shapesText: String?
    if result.shapesLive && !result.shapes.isEmpty && !result.hasErrors {
        shapesText = EasystrokeRulesWriter.shapesFile(result)
    }
    let lua = EasystrokeRulesWriter.write(result, sourceName: "fuzz/actions-0.5.6", shapesFile: shapesText == nil ? nil : "fuzz.shapes.jsonl")
    let rules = load(lua, shapes: shapesText)
    // Each live rule is one on() call.
    if rules != live { fatalError("easystroke: \(live) live rules written, but the Lua defines \(rules):\n\(lua)") }
}

/// Every message has its text, and a line within the file. Lines end as
/// Python's universal newlines end them (libinput-gestures' reader counts a
/// lone CR as a line's end, as libinput-gestures does): LF, CR LF or CR.
func checkDiagnostics(_ diagnostics: [ImportDiagnostic], input: [UInt8]) {
    var lines = 1
    for (i, byte) in input.enumerated() where byte == 0x0A || (byte == 0x0D && (i + 1 == input.count || input[i + 1] != 0x0A)) {
        lines += 1
    }
    for d in diagnostics {
        if d.message.isEmpty { fatalError("import: an empty message") }
        if let line = d.line, line < 1 || line > lines + 1 {
            fatalError("import: a message at line \(line) of a file of \(lines) lines: \(d.message)")
        }
    }
}

/// Loads the rules as `gesturemap check` does and returns how many it defined:
/// the file must load with no error and no warning, and carry no raw control byte.
func load(_ lua: String, shapes: String?) -> Int {
    for byte in lua.utf8 where (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
        fatalError("import: a raw control byte 0x\(String(byte, radix: 16)) in the rules:\n\(lua)")
    }
    guard let runtime = ScriptRuntime(host: QuietHost()) else { fatalError("no Lua state") }
    if let shapes {
        let file = ShapeFile.parse(Array(shapes.utf8), path: "fuzz.shapes.jsonl")
        if !file.problems.isEmpty { fatalError("import: the shapes file written has problems: \(file.problems)\n\(shapes)") }
        runtime.shapeNames = ShapeFile.names(ShapeFile.library(adding: file.templates))
    }
    do {
        try runtime.load(source: lua, chunkName: "=fuzz.lua")
    } catch {
        fatalError("import: the rules written do not load: \(error.problems)\n\(lua)")
    }
    if !runtime.warnings.isEmpty { fatalError("import: check warns of the rules written: \(runtime.warnings)\n\(lua)") }
    return runtime.ruleCount
}
