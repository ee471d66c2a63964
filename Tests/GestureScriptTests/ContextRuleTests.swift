import GestureContext
import GestureCore
import GestureScript
import Testing

/// g.app, app(), g.modifiers, and the `app` and `modifiers` rule options.
@Suite("Rules by application and held keys")
struct ContextRuleTests {
    static let zathura = AppInfo(id: "org.pwmt.zathura", title: "paper.pdf", pid: 4242)

    @Test("g.app has the focused application's id, title and pid; nil without one")
    func gestureApp() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          if g.app then emit("app", { id = g.app.id, title = g.app.title, pid = g.app.pid }) else emit("none") end
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        runtime.setApp(Self.zathura)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 2)))
        runtime.setApp(AppInfo(id: "foot"))
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 3)))
        #expect(host.lines == [
            #"{"action":"none","t":1}"#,
            #"{"action":"app","t":2,"id":"org.pwmt.zathura","pid":4242,"title":"paper.pdf"}"#,
            #"{"action":"app","t":3,"id":"foot","title":""}"#,
        ])
    }

    @Test("app() gives the focused application outside handlers, in timers")
    func appFunction() throws {
        let (runtime, host) = try loadRules("""
        on("tap", function(g)
          after(1, function() local a = app(); emit("later", { id = a and a.id or "none" }) end)
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: GestureEvent(kind: .tap, phase: .ended, fingers: 1, time: 1)))
        runtime.setApp(AppInfo(id: "firefox", title: "Mozilla Firefox"))
        runtime.fireTimers(upTo: 2)
        runtime.dispatch(Delivery(rule: 0, event: GestureEvent(kind: .tap, phase: .ended, fingers: 1, time: 3)))
        runtime.setApp(nil)
        runtime.fireTimers(upTo: 4)
        #expect(host.lines == [#"{"action":"later","t":2,"id":"firefox"}"#, #"{"action":"later","t":4,"id":"none"}"#])
    }

    @Test("g.modifiers names the held modifiers; an empty table when none are held")
    func gestureModifiers() throws {
        let (runtime, host) = try loadRules("""
        on("swipe left", function(g)
          local names = {}
          for k, v in pairs(g.modifiers) do names[#names + 1] = k .. "=" .. tostring(v) end
          table.sort(names)
          emit("held", { keys = table.concat(names, ",") })
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 1)))
        runtime.setModifiers([.ctrl, .shift])
        runtime.dispatch(Delivery(rule: 0, event: swipe(.left, at: 2)))
        #expect(host.lines == [#"{"action":"held","t":1,"keys":""}"#, #"{"action":"held","t":2,"keys":"ctrl=true,shift=true"}"#])
    }

    @Test("app: a rule is active only while a matching application has the focus")
    func appActivity() throws {
        let (runtime, _) = try loadRules("""
        on("swipe left", function(g) end)
        on("swipe left", function(g) end, { app = "zathura" })
        on("swipe left", function(g) end, { app = { "^firefox$", "chromium" } })
        on("swipe left", function(g) end, { app = "libreoffice-impress" })
        on("swipe left", function(g) end, { app = "Evince" })
        """)
        func active(_ id: String?) -> [Bool] {
            runtime.setApp(id.map { AppInfo(id: $0) })
            return runtime.coreRules.map(\.isActive)
        }
        #expect(active(nil) == [true, false, false, false, false])
        #expect(active("org.pwmt.zathura") == [true, true, false, false, false])
        #expect(active("firefox") == [true, false, true, false, false])
        #expect(active("firefox-esr") == [true, false, false, false, false])
        #expect(active("Chromium-browser") == [true, false, true, false, false])
        // Its `-` is a pattern operator, yet the name as written matches itself.
        #expect(active("libreoffice-impress") == [true, false, false, true, false])
        // Letters match in either case: the X11 class and the Wayland app_id.
        #expect(active("evince") == [true, false, false, false, true])
        #expect(active("org.gnome.Evince") == [true, false, false, false, true])
    }

    @Test("a pattern class (%u, %A) keeps its meaning; only letters fold")
    func classesKeepMeaning() throws {
        let (runtime, _) = try loadRules("""
        on("tap", function(g) end, { app = "^%u" })
        on("tap", function(g) end, { app = "^X%A" })
        """)
        runtime.setApp(AppInfo(id: "Xmessage"))
        #expect(runtime.coreRules.map(\.isActive) == [true, false])
        runtime.setApp(AppInfo(id: "x-terminal"))
        #expect(runtime.coreRules.map(\.isActive) == [false, true])
    }

    @Test("modifiers: a rule is active only while exactly those modifiers are held; \"none\" while none are")
    func modifierActivity() throws {
        let (runtime, _) = try loadRules("""
        on("swipe left", function(g) end)
        on("swipe left", function(g) end, { modifiers = "ctrl" })
        on("swipe left", function(g) end, { modifiers = "Ctrl + Shift" })
        on("swipe left", function(g) end, { modifiers = "none" })
        """)
        func active(_ held: Modifiers) -> [Bool] {
            runtime.setModifiers(held)
            return runtime.coreRules.map(\.isActive)
        }
        #expect(active([]) == [true, false, false, true])
        #expect(active(.ctrl) == [true, true, false, false])
        #expect(active([.ctrl, .shift]) == [true, false, true, false])
        #expect(active([.ctrl, .alt]) == [true, false, false, false])
    }

    @Test("the context rank: app 1, modifiers 2, both 3, neither 0")
    func ranks() throws {
        let (runtime, _) = try loadRules("""
        on("tap", function(g) end)
        on("tap", function(g) end, { app = "a" })
        on("tap", function(g) end, { modifiers = "alt" })
        on("tap", function(g) end, { app = "a", modifiers = "alt" })
        """)
        #expect(runtime.coreRules.map(\.contextRank) == [0, 1, 2, 3])
    }

    @Test("a focus change reconfigures the core only when some rule has an app option")
    func changesPushed() throws {
        let (plain, plainHost) = try loadRules(#"on("tap", function(g) end)"#)
        // The load tells once, when the rules are whole.
        #expect(plainHost.rulesChanges == 1)
        plain.setApp(AppInfo(id: "foot"))
        plain.setModifiers(.ctrl)
        #expect(plainHost.rulesChanges == 1)
        #expect(plain.context == RuleContext(app: AppInfo(id: "foot"), modifiers: .ctrl))
        let (perApp, perAppHost) = try loadRules(#"on("tap", function(g) end, { app = "foot" })"#)
        perApp.setApp(AppInfo(id: "foot"))
        perApp.setApp(AppInfo(id: "foot"))
        perApp.setModifiers(.ctrl)
        #expect(perAppHost.rulesChanges == 2)
    }

    @Test("rules for the same gesture but other applications or keys do not hide each other")
    func noShadowing() throws {
        let (runtime, _) = try loadRules("""
        on("tap", function(g) end)
        on("tap", function(g) end, { app = "firefox" })
        on("tap", function(g) end, { app = "evince" })
        on("tap", function(g) end, { modifiers = "ctrl" })
        on("tap", function(g) end, { app = "evince" })
        """)
        #expect(runtime.warnings == ["rules.lua:3: warning: this rule for \"tap\" never runs: the rule at rules.lua:5 is for the same gesture and, defined later, wins; remove one or give them different modes"])
    }

    @Test("check warns about app options that can never match")
    func warnings() throws {
        let (runtime, _) = try loadRules("""
        on("tap", function(g) end, { app = "" })
        on("2-finger tap", function(g) end, { app = {} })
        on("3-finger tap", function(g) end, { app = { "firefox", "" } })
        """)
        #expect(runtime.warnings == [
            "rules.lua:1: warning: an empty app pattern matches no application; name one, as gesturemap apps shows it (such as \"firefox\")",
            "rules.lua:2: warning: the option app = {} lists no application, so this rule never runs; name one, as gesturemap apps shows it, or leave the option out",
            "rules.lua:3: warning: an empty app pattern matches no application; name one, as gesturemap apps shows it (such as \"firefox\")",
        ])
        runtime.setApp(AppInfo(id: "firefox"))
        #expect(runtime.coreRules.map(\.isActive) == [false, false, true])
    }

    @Test("bad app and modifiers options are load errors at their line")
    func errors() {
        #expect(loadProblems(#"on("tap", function(g) end, { app = "fire[fox" })"#)
            == [#"rules.lua:1: option "app" is not a valid Lua pattern: "fire[fox" (malformed pattern (missing ']'))"#])
        #expect(loadProblems(#"on("tap", function(g) end, { app = 3 })"#)
            == [#"rules.lua:1: option "app" must be a Lua pattern for the application's id, or a list of them, such as "firefox" or { "evince", "zathura" }; gesturemap apps shows the ids"#])
        #expect(loadProblems(#"on("tap", function(g) end, { modifiers = "ctrl+hyper" })"#)
            == [#"rules.lua:1: option modifiers "ctrl+hyper": "hyper" is not a modifier; use ctrl, shift, alt or super, joined with +"#])
        #expect(loadProblems(#"on("tap", function(g) end, { modifiers = { "ctrl" } })"#)
            == [#"rules.lua:1: option "modifiers" must be the keys to hold, such as "ctrl" or "ctrl+shift" (or "none")"#])
    }

    @Test("config{ typing_quiet = ... } sets the quiet while typing, 0 to 5 s")
    func typingQuiet() throws {
        let (runtime, _) = try loadRules("config{ typing_quiet = 0 }")
        #expect(runtime.thresholds[.typingQuiet] == 0)
        #expect(Thresholds()[.typingQuiet] == TypingQuiet.defaultDuration)
        #expect(loadProblems("config{ typing_quiet = 9 }") == ["rules.lua:1: config key \"typing_quiet\" must be between 0 and 5 s, not 9"])
    }
}
