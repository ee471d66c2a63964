import Foundation
import Testing

/// `gesturemap doctor` inside the real shells' sessions: it reads GNOME's
/// touchpad settings from the session's own dconf (through gsettings, where
/// the shell reads them) and KWin's kwinrc, and names the desktop gestures the
/// rules clash with. The headless shells have no touchpad, so what a setting
/// does to one is taken from the settings' meaning, not watched here; KWin's
/// loaded effects are watched.
@Suite("doctor inside a real GNOME Shell and KWin session", .serialized)
struct RealShellDoctorTests {
    @Test("GNOME Shell 43: its 3-finger swipes clash; with tap-to-click on in its settings its taps clash too; touchpads off, nothing clashes and doctor says why")
    func gnome() throws {
        let shell = try GnomeShellSession()
        defer { shell.stop() }
        let name = shell.version.replacingOccurrences(of: "GNOME Shell", with: "GNOME")
        let rules = try DoctorDesktopTests.rules("""
            on("3-finger swipe left", function(g) key("super+Page_Down") end)
            on("2-finger tap", function(g) key("ctrl+w") end)
            on("4-finger swipe up", function(g) key("super") end)
            """)
        let swipeClash = "  warning  \(name)'s 3-finger swipe left/right (switches workspace, following the fingers) and the rule for \"3-finger swipe left\": on a touchpad both act"
        let tapClash = "  warning  \(name)'s 2-finger tap (clicks the right button, as tap-to-click is on) and the rule for \"2-finger tap\": on a touchpad both act"

        let (_, plain) = try DoctorDesktopTests.doctor(["--rules", rules], environment: shell.engineEnvironment)
        #expect(plain.contains("  ok       \(name), a wayland session\n"), "\(plain)")
        #expect(plain.contains(swipeClash), "\(plain)")
        #expect(!plain.contains("2-finger tap ("), "tap-to-click is off by default: \(plain)")
        #expect(!plain.contains("the rule for \"4-finger swipe up\""), "GNOME 43 has no 4-finger swipes: \(plain)")

        try shell.gsettings(["set", "org.gnome.desktop.peripherals.touchpad", "tap-to-click", "true"])
        let (_, taps) = try DoctorDesktopTests.doctor(["--rules", rules], environment: shell.engineEnvironment)
        #expect(taps.contains(swipeClash), "\(taps)")
        #expect(taps.contains(tapClash), "\(taps)")

        try shell.gsettings(["set", "org.gnome.desktop.peripherals.touchpad", "send-events", "disabled"])
        let (_, off) = try DoctorDesktopTests.doctor(["--rules", rules], environment: shell.engineEnvironment)
        #expect(off.contains("""
              warning  \(name) has touchpads turned off (org.gnome.desktop.peripherals.touchpad send-events is 'disabled'): it reads none, gesturemap's clone included, so its own gestures do nothing and a shared touchpad gives the desktop nothing
                       fix: gsettings set org.gnome.desktop.peripherals.touchpad send-events enabled (Settings → Mouse & Touchpad → Touchpad)
            """), "\(off)")
        #expect(!off.contains("both act"), "\(off)")
    }

    @Test("KWin 5.27: its 4-finger swipes clash; kwinrc turning the overview off unloads it in KWin, and doctor drops its swipe up")
    func kwin() throws {
        let rules = try DoctorDesktopTests.rules("""
            on("4-finger swipe left", function(g) key("ctrl+Page_Up") end)
            on("4-finger swipe up", function(g) key("super") end)
            """)
        let leftClash = "  warning  KDE Plasma's 4-finger swipe left/right (switches virtual desktop, following the fingers) and the rule for \"4-finger swipe left\": on a touchpad both act"
        let upClash = "  warning  KDE Plasma's 4-finger swipe up (opens the overview) and the rule for \"4-finger swipe up\": on a touchpad both act"
        do {
            let kwin = try KWinSession()
            defer { kwin.stop() }
            #expect(kwin.loadedEffects().contains("overview"), "\(kwin.loadedEffects())")
            let (_, text) = try DoctorDesktopTests.doctor(["--rules", rules], environment: kwin.engineEnvironment)
            #expect(text.contains("  ok       KDE Plasma, a wayland session\n"), "\(text)")
            #expect(text.contains(leftClash), "\(text)")
            #expect(text.contains(upClash), "\(text)")
        }
        let kwin = try KWinSession(kwinrc: "overviewEnabled=false\n")
        defer { kwin.stop() }
        let effects = kwin.loadedEffects()
        #expect(!effects.contains("overview") && effects.contains("desktopgrid"), "\(effects)")
        let (_, text) = try DoctorDesktopTests.doctor(["--rules", rules], environment: kwin.engineEnvironment)
        #expect(text.contains(leftClash), "\(text)")
        #expect(!text.contains("the rule for \"4-finger swipe up\""), "\(text)")
        #expect(text.contains("  note     kwinrc turns KWin's overview off ([Plugins] overviewEnabled=false): its 4-finger swipe up does nothing\n"), "\(text)")
    }
}
