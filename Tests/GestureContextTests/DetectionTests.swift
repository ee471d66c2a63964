import GestureContext
import Testing

@Suite("choosing the app source from the session")
struct DetectionTests {
    @Test("each desktop is found from its variables, in order of precedence")
    func detection() {
        #expect(AppSourceChoice.detect(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "abc", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000"])
                == .hyprland(signature: "abc", runtimeDirectory: "/run/user/1000"))
        #expect(AppSourceChoice.detect(environment: ["SWAYSOCK": "/run/sway.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"])
                == .i3ipc(name: .sway, socket: "/run/sway.sock"))
        #expect(AppSourceChoice.detect(environment: ["I3SOCK": "/run/i3/ipc", "DISPLAY": ":0"]) == .i3ipc(name: .i3, socket: "/run/i3/ipc"))
        #expect(AppSourceChoice.detect(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DISPLAY": ":0"])
                == .dbus(desktop: .gnome, address: nil))
        #expect(AppSourceChoice.detect(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/b"])
                == .dbus(desktop: .kde, address: "unix:path=/b"))
        #expect(AppSourceChoice.detect(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "river"]) == .wlroots(display: "wayland-0"))
        // GNOME or KDE on Xorg: the X server knows the focus without an extension.
        #expect(AppSourceChoice.detect(environment: ["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]) == .x11(display: ":0"))
        #expect(AppSourceChoice.detect(environment: ["DISPLAY": ":1", "WAYLAND_DISPLAY": ""]) == .x11(display: ":1"))
    }

    @Test("--app-command and --app-source win over the environment")
    func explicit() {
        let env = ["DISPLAY": ":0", "SWAYSOCK": "/s"]
        #expect(AppSourceChoice.detect(environment: env, command: "focus-helper") == .command("focus-helper"))
        #expect(AppSourceChoice.detect(environment: env, named: .x11) == .x11(display: ":0"))
        #expect(AppSourceChoice.detect(environment: env, named: .wlroots) == .wlroots(display: nil))
        #expect(AppSourceChoice.detect(environment: env, named: .gnome) == .dbus(desktop: .gnome, address: nil))
        #expect(AppSourceChoice.detect(environment: env, named: AppSourceName.none) == .none(reason: "--app-source none"))
    }

    @Test("nothing to go on: the reason says what was looked for and what to do")
    func none() {
        #expect(AppSourceChoice.detect(environment: [:]) == .none(reason: "no desktop session found: none of WAYLAND_DISPLAY, DISPLAY, SWAYSOCK, I3SOCK or HYPRLAND_INSTANCE_SIGNATURE is set (a system service or a console?); start gesturemap inside the desktop session, or choose one with --app-source NAME or --app-command CMD"))
        #expect(AppSourceChoice.detect(environment: [:], named: .sway) == .none(reason: "--app-source sway needs SWAYSOCK, which is not set; run gesturemap inside the sway session, or set SWAYSOCK to the socket (sway --get-socketpath)"))
        #expect(AppSourceChoice.detect(environment: [:], named: .command) == .none(reason: "--app-source command needs --app-command CMD"))
        var messages: [String] = []
        let tracker = AppTracker(choice: AppSourceChoice.detect(environment: [:], named: .hyprland), report: { messages.append($0) })
        #expect(tracker.current == nil)
        #expect(tracker.timeout() == nil)
        #expect(messages == ["no app source: --app-source hyprland needs HYPRLAND_INSTANCE_SIGNATURE, which is not set; run gesturemap inside the Hyprland session; g.app is nil"])
    }
}
