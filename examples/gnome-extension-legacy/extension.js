// gesturemap focus, for GNOME Shell 40 to 44: the same extension as
// examples/gnome-extension, in the format these versions load. GNOME 45 made
// extensions ES modules and no longer loads this one; GNOME 44 and earlier
// cannot load that one. Keep the two in step: only the imports, the class's
// base and the init() at the end differ.
// gesturemap owns org.gesturemap.Focus on the session bus while it runs with
// --app-source gnome (or detects GNOME); this extension calls it on every
// focus change, and again whenever a gesturemap appears on the bus. gesturemap
// takes these calls only from the connection that owns org.gnome.Shell, so they
// go through the Shell's own Gio.DBus.session. The interface is in docs/apps.md.
'use strict';

const {Gio, GLib, Meta} = imports.gi;

const BUS_NAME = 'org.gesturemap.Focus';
const OBJECT_PATH = '/org/gesturemap/Focus';
const INTERFACE = 'org.gesturemap.Focus1';

class GesturemapFocusExtension {
    enable() {
        this._present = false;
        this._titleWindow = null;
        this._titleSignal = 0;
        this._displaySignals = [
            global.display.connect('notify::focus-window', () => this._focusChanged()),
            global.display.connect('window-created', () => this._sendWindows()),
        ];
        // A gesturemap that starts later learns the focus at once.
        this._watch = Gio.bus_watch_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => {
                this._present = true;
                this._sendFocus();
                this._sendWindows();
            },
            () => {
                this._present = false;
            });
        this._focusChanged();
    }

    disable() {
        for (const id of this._displaySignals) global.display.disconnect(id);
        this._displaySignals = [];
        this._followTitle(null);
        Gio.bus_unwatch_name(this._watch);
        this._watch = 0;
    }

    _focusChanged() {
        this._followTitle(global.display.focus_window);
        this._sendFocus();
    }

    // The focused window's title is part of what gesturemap sees.
    _followTitle(window) {
        if (this._titleWindow && this._titleSignal) this._titleWindow.disconnect(this._titleSignal);
        this._titleWindow = window;
        this._titleSignal = window ? window.connect('notify::title', () => this._sendFocus()) : 0;
    }

    _describe(window) {
        // On Wayland, mutter reports the app_id as the window's class.
        return {
            id: window.get_wm_class() ?? window.get_gtk_application_id() ?? '',
            title: window.get_title() ?? '',
            pid: Math.max(0, window.get_pid()),
        };
    }

    _sendFocus() {
        const window = global.display.focus_window;
        const app = window ? this._describe(window) : {id: '', title: '', pid: 0};
        this._call('FocusChanged', new GLib.Variant('(ssu)', [app.id, app.title, app.pid]));
    }

    // gesturemap reads at most 256 windows, in a message of at most 64 KiB
    // (docs/apps.md, Limits): the list is only for `gesturemap apps`, so its
    // titles are cut to stay well inside that.
    _sendWindows() {
        const focused = global.display.focus_window;
        const windows = global.get_window_actors()
            .map(actor => actor.meta_window)
            .filter(window => window.get_window_type() === Meta.WindowType.NORMAL)
            .slice(0, 256)
            .map(window => {
                const app = this._describe(window);
                return {...app, title: app.title.slice(0, 120), focused: window === focused};
            });
        this._call('WindowsChanged', new GLib.Variant('(s)', [JSON.stringify(windows)]));
    }

    _call(method, parameters) {
        if (!this._present) return;
        Gio.DBus.session.call(BUS_NAME, OBJECT_PATH, INTERFACE, method, parameters, null,
            Gio.DBusCallFlags.NO_AUTO_START, 1000, null, (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (e) {
                    // gesturemap went away between the name check and the call.
                }
            });
    }
}

// eslint-disable-next-line no-unused-vars
function init() {
    return new GesturemapFocusExtension();
}
