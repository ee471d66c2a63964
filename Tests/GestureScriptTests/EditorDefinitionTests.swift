import Foundation
import GestureContext
import GestureCore
@testable import GestureScript
import Testing

/// examples/editor's lua-language-server definitions and luacheck standard
/// against what a running gesturemap registers, so neither drifts from it:
/// each declares every global, field and method there is, and nothing else.
@Suite("Editor definitions match the runtime")
struct EditorDefinitionTests {
    /// The sandbox's globals, described from inside a live runtime.
    static func sandbox() throws -> Globals {
        let (runtime, host) = try loadRules(EditorFiles.describer + """

            on("tap", function(g) emit("globals", { text = describe(_G) }) end)
            """)
        runtime.dispatch(Delivery(rule: 0, event: GestureEvent(kind: .tap, phase: .ended, fingers: 1, time: 1)))
        let lines = host.lines.compactMap(Self.json)
        let text = try #require(lines.first?["text"] as? String, "the handler emitted no description: \(host.lines) \(host.messages)")
        return Globals(text)
    }

    static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The globals gesturemap itself gives the rules: those Lua has not, and
    /// those it replaces (a function written in Lua where Lua's is in C, as
    /// print and require; a library table with other fields, as os).
    static func ownGlobals(sandbox: Globals, standard: Globals) -> Set<String> {
        sandbox.names.filter { name in
            guard let lua = standard.kinds[name] else { return true }
            return sandbox.kinds[name] != lua || sandbox.fields(of: name) != standard.fields(of: name)
        }
    }

    static func meta() throws -> (definitions: Globals, classes: DeclaredClasses) {
        let text = try EditorFiles.text("gesturemap.meta.lua")
        return (try EditorFiles.definitions(of: text, chunkName: "gesturemap.meta.lua").get(), DeclaredClasses(text))
    }

    @Test("the meta file is Lua 5.4 that defines exactly gesturemap's globals, with every field of its tables")
    func metaGlobals() throws {
        let sandbox = try Self.sandbox()
        let own = Self.ownGlobals(sandbox: sandbox, standard: try EditorFiles.standardLua())
        // What the runtime must have for this to mean anything.
        #expect(own.isSuperset(of: ["on", "emit", "pointer", "touchpad", "log", "print", "require", "state", "os"]), "\(own.sorted())")
        let (declared, _) = try Self.meta()
        #expect(declared.names == own, "declared but not in the runtime: \(declared.names.subtracting(own).sorted()); in the runtime but not declared: \(own.subtracting(declared.names).sorted())")
        for name in own.sorted() where sandbox.kinds[name] == "table" {
            #expect(declared.fields(of: name) == sandbox.fields(of: name), "\(name): the meta file declares \(declared.fields(of: name).sorted()), the runtime has \(sandbox.fields(of: name).sorted())")
        }
        for name in own.sorted() where sandbox.kinds[name]?.hasSuffix("function") == true {
            #expect(declared.kinds[name]?.hasSuffix("function") == true, "\(name) is a function in the runtime, declared as \(declared.kinds[name] ?? "nothing")")
        }
    }

    @Test("the luacheck standard lists every global of the sandbox, and the fields of each library table")
    func luacheckGlobals() throws {
        let sandbox = try Self.sandbox()
        let std = try EditorFiles.definitions(of: try EditorFiles.text(".luacheckrc"), chunkName: ".luacheckrc", environment: "{ stds = {} }", describing: """
            (function()
              local listed = {}
              local std = env.stds.gesturemap
              for _, part in ipairs({ std.read_globals or {}, std.globals or {} }) do
                for key, value in pairs(part) do
                  if type(key) == "number" then listed[value] = {} else listed[key] = value.fields or {} end
                end
              end
              local out = {}
              for name, fields in pairs(listed) do
                out[name] = {}
                for _, field in ipairs(fields) do out[name][field] = true end
              end
              return out
            end)()
            """).get()
        #expect(std.names == sandbox.names, "listed but not in the sandbox: \(std.names.subtracting(sandbox.names).sorted()); in the sandbox but not listed: \(sandbox.names.subtracting(std.names).sorted())")
        // _G is every global, and state's fields are the rules' own.
        for name in sandbox.names.sorted() where sandbox.kinds[name] == "table" && !["_G", "state"].contains(name) {
            #expect(std.fields(of: name) == sandbox.fields(of: name), "\(name): the standard lists \(std.fields(of: name).sorted()), the sandbox has \(sandbox.fields(of: name).sorted())")
        }
    }

    @Test(".luarc.json turns off exactly the libraries the sandbox lacks or narrows, and reads the definitions where the package installs them")
    func languageServerSettings() throws {
        let settings = try #require(try JSONSerialization.jsonObject(with: Data(EditorFiles.text(".luarc.json").utf8)) as? [String: Any])
        let sandbox = try Self.sandbox()
        let standard = try EditorFiles.standardLua()
        let libraries = standard.names.filter { standard.kinds[$0] == "table" && $0 != "_G" }
        let offOrNarrowed = libraries.filter { !sandbox.names.contains($0) || sandbox.fields(of: $0) != standard.fields(of: $0) }
        #expect(offOrNarrowed == ["io", "debug", "package", "os"], "what the sandbox changes: \(offOrNarrowed.sorted())")
        let builtin = try #require(settings["runtime.builtin"] as? [String: String])
        #expect(Set(builtin.filter { $0.value == "disable" }.keys) == offOrNarrowed)
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
        let library = try #require(settings["workspace.library"] as? [String])
        let package = try String(contentsOf: EditorFiles.root.appendingPathComponent("scripts/package"), encoding: .utf8)
        #expect(library == ["/usr/share/gesturemap/editor"])
        #expect(package.contains("editor=\"$pkg/usr/share/gesturemap/editor\""), "scripts/package installs the definitions where .luarc.json looks")
    }

    @Test("gesturemap.Gesture declares every field a handler's g has")
    func gestureFields() throws {
        let (runtime, host) = try loadRules("""
            local function keys(g)
              local names = {}
              for k in pairs(g) do names[#names + 1] = k end
              emit("keys", { names = table.concat(names, ",") })
            end
            on("swipe left", keys)
            on("edge swipe from left", keys)
            on("shape circle", keys)
            on("pan", keys, { ["repeat"] = 10 })
            on({ kind = "stroke", direction = "left-up" }, keys)
            on({ kind = "chord", button = "left", press = "right" }, keys)
            on({ kind = "chord", button = "right", wheel = "up" }, keys)
            """)
        runtime.deviceNames = ["Panel"]
        runtime.setApp(AppInfoFixture.zathura)
        runtime.setModifiers([.ctrl])
        var left = swipe(.left)
        left.normalized = Vector(0.5, 0.5)
        runtime.dispatch(Delivery(rule: 0, event: left))
        runtime.dispatch(Delivery(rule: 1, event: GestureEvent(kind: .edgeSwipe, phase: .ended, fingers: 1, direction: .right, time: 2, edge: .left)))
        runtime.dispatch(Delivery(rule: 2, event: GestureEvent(kind: .shape, phase: .ended, fingers: 1, time: 3, name: "circle", score: 0.9)))
        var pan = GestureEvent(kind: .pan, phase: .began, fingers: 1, direction: .right, time: 4, delta: Vector(6, 0))
        runtime.dispatch(Delivery(rule: 3, event: pan))
        pan.phase = .changed
        pan.time = 4.1
        pan.delta = Vector(25, 0)
        runtime.dispatch(Delivery(rule: 3, event: pan))
        let stroke = MouseStrokeReading.Stroke(directions: [.left, .up], length: 60, duration: 0.3)
        let path = [MouseStrokeReading.Point(time: 5, x: 0, y: 0), MouseStrokeReading.Point(time: 5.3, x: -30, y: -30)]
        runtime.dispatch(Delivery(rule: 4, event: StrokeRules.event(stroke, button: .right, path: path, device: 0)))
        runtime.dispatch(Delivery(rule: 5, event: ChordRules.event(ChordRules.Chord(held: .left, press: .right), at: 6, device: 0)))
        runtime.dispatch(Delivery(rule: 6, event: ChordRules.event(ChordRules.Chord(held: .right, wheel: .up), at: 7, device: 0)))
        let seen = Set(host.lines.compactMap(Self.json).flatMap { ($0["names"] as? String)?.split(separator: ",").map(String.init) ?? [] })
        #expect(seen.isSuperset(of: ["nx", "edge", "shape", "score", "app", "step", "modifiers", "button", "press", "wheel"]), "these events should show every optional field: \(seen.sorted())")
        let declared = try Self.meta().classes["gesturemap.Gesture"]
        #expect(declared == seen, "declared but never in g: \(declared.subtracting(seen).sorted()); in g but not declared: \(seen.subtracting(declared).sorted())")
    }

    @Test("the spec table, on()'s options and recognizer()'s functions are declared key for key")
    func tableKeys() throws {
        let classes = try Self.meta().classes
        #expect(classes["gesturemap.Spec"] == Set(SpecReader.tableKeys))
        #expect(classes["gesturemap.RuleOptions"] == Set(ScriptRuntime.optionKeys))
        #expect(classes["gesturemap.RecognizerFunctions"] == Set(ScriptRuntime.recognizerKeys))
    }

    @Test("the binding's, the timer's and a recognizer's methods are declared")
    func methods() throws {
        let classes = try Self.meta().classes
        #expect(classes["gesturemap.Binding"] == Set(APITable.bindingMethods.map { String(cString: $0.name) }))
        #expect(classes["gesturemap.Timer"] == Set(APITable.timerMethods.map { String(cString: $0.name) }))
        let recognizer = Set(APITable.recognizerMethods.map { String(cString: $0.name) }).union(["state", "name"])
        #expect(classes["gesturemap.Recognizer"] == recognizer)
    }

    @Test("a recognizer's r, frame and touches have the fields declared")
    func recognizerTables() throws {
        let scenario = try UserGestureScenario("""
            local function keys(t)
              local names = {}
              for k in pairs(t) do if type(t[k]) ~= "function" then names[#names + 1] = k end end
              return table.concat(names, ",")
            end
            recognizer("look", {
              frame = function(r, f)
                emit("tables", { r = keys(r), f = keys(f), touch = keys(f.touches[1]) })
                r:fail("only looking")
              end,
            })
            on("look", function(g) end)
            """)
        let surface = Surface(width: 200, height: 100)
        scenario.run([TouchFrame(time: 1, touches: [Touch(id: 1, position: Vector(50, 50), phase: .began)], surface: surface),
                      TouchFrame(time: 1.1, touches: [Touch(id: 1, position: Vector(50, 50), phase: .ended)], surface: surface)])
        let first = try #require(scenario.emitted.first)
        func names(_ key: String) -> Set<String> { Set((first[key] as? String)?.split(separator: ",").map(String.init) ?? []) }
        let classes = try Self.meta().classes
        #expect(classes["gesturemap.Frame"] == names("f"))
        #expect(classes["gesturemap.Touch"] == names("touch"))
        #expect(names("r").isSubset(of: classes["gesturemap.Recognizer"]), "\(names("r"))")
    }

    @Test("gesturemap.Config declares every config key with its unit, range and default")
    func configKeys() throws {
        let (_, classes) = try Self.meta()
        #expect(classes["gesturemap.Config"] == Set(Threshold.allCases.map(\.rawValue)))
        let lines = classes.fieldLines["gesturemap.Config"] ?? [:]
        for key in Threshold.allCases {
            let line = lines[key.rawValue] ?? ""
            if let choices = key.choices {
                let chosen = choices[Int(key.defaultValue)]
                #expect(choices.allSatisfy { line.contains("\"\($0)\"") } && line.contains("default \"\(chosen)\""), "\(line)")
            } else if key.isSwitch {
                #expect(line.contains("boolean") && line.contains("default \(key.defaultValue == 0 ? "false" : "true")"), "\(line)")
            } else {
                let said = "\(key.unit), \(shown(key.range.lowerBound)) to \(shown(key.range.upperBound)), default \(shown(key.defaultValue))"
                #expect(line.contains(said), "\(key.rawValue): the meta file should say \"\(said)\": \(line)")
            }
        }
    }

    private func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

private enum AppInfoFixture {
    static let zathura = AppInfo(id: "org.pwmt.zathura", title: "paper.pdf", pid: 4242)
}
