@testable import GestureTools
import Testing

/// What doctor reads of GNOME's touchpad settings and of kwinrc, from the
/// text gsettings prints and the file KWin reads.
@Suite("doctor's reading of desktop settings")
struct DesktopSettingsTests {
    @Test("gsettings' listing: send-events, tap-to-click and the tap button map; other schemas' lines and no listing at all")
    func gnomeTouchpad() throws {
        let listing = """
            org.gnome.desktop.peripherals.touchpad send-events 'disabled-on-external-mouse'
            org.gnome.desktop.peripherals.touchpad tap-button-map 'lmr'
            org.gnome.desktop.peripherals.touchpad tap-to-click true
            org.gnome.desktop.peripherals.mouse tap-to-click false
            """
        let settings = try #require(GnomeTouchpadSettings(listing: listing))
        #expect(settings.sendEvents == "disabled-on-external-mouse")
        #expect(settings.taps.map(\.phrase) == ["1-finger tap", "2-finger tap", "3-finger tap"])
        #expect(settings.taps.map(\.action) == ["clicks the left button, as tap-to-click is on", "clicks the middle button, as tap-to-click is on",
                                                "clicks the right button, as tap-to-click is on"])
        #expect(settings.findings(desktop: "GNOME 43.9").map(\.status) == [.note])
        #expect(GnomeTouchpadSettings(listing: "No such schema “org.gnome.desktop.peripherals.touchpad”\n") == nil)
        #expect(GnomeTouchpadSettings(listing: "") == nil)
        let off = try #require(GnomeTouchpadSettings(listing: "org.gnome.desktop.peripherals.touchpad send-events 'disabled'\n"))
        #expect(off.taps.isEmpty)
        #expect(DesktopGesture.gnome(major: 43, touchpad: off).isEmpty)
        #expect(DesktopGesture.gnome(major: 43, touchpad: nil) == DesktopGesture.gnome(major: 43))
    }

    @Test("a tap of the desktop's collides with a rule's tap of the same count, and with nothing else")
    func tapCollision() throws {
        let tap = DesktopGesture(.tap, fingers: 2, [], "clicks the right button")
        #expect(tap.collides(with: try DoctorPartsTests.spec("2-finger tap")))
        #expect(tap.collides(with: try DoctorPartsTests.spec("2-finger double tap")))
        #expect(!tap.collides(with: try DoctorPartsTests.spec("3-finger tap")))
        #expect(!tap.collides(with: try DoctorPartsTests.spec("2-finger swipe left")))
    }

    @Test("kwinrc: only [Plugins]' overviewEnabled and desktopgridEnabled, spaces and case as KConfig takes them; the defaults are on")
    func kwinrc() {
        #expect(KWinEffectSettings(kwinrc: "") == KWinEffectSettings())
        let off = KWinEffectSettings(kwinrc: "[Effect-overview]\noverviewEnabled=false\n[Plugins]\ndesktopgridEnabled = False\r\nzoomEnabled=false\n")
        #expect(off.overview)
        #expect(!off.desktopGrid)
        #expect(DesktopGesture.kde(major: 5, effects: off).map(\.phrase) == ["4-finger swipe left/right", "4-finger swipe up"])
        #expect(DesktopGesture.kde(major: 5, effects: KWinEffectSettings()) == DesktopGesture.kde(major: 5))
        #expect(KWinEffectSettings.path(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/a"]) == "/home/a/.config/kwinrc")
        #expect(KWinEffectSettings.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/home/a"]) == "/c/kwinrc")
    }
}
