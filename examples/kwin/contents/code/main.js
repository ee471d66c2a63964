// gesturemap focus: KWin tells gesturemap which application has the focus.
// gesturemap owns org.gesturemap.Focus on the session bus while it runs with
// --app-source kde (or detects KDE); this script calls it on every activation.
// callDBus goes through KWin's own connection, the owner of org.kde.KWin: the
// only one gesturemap takes calls from. The interface is described in docs/apps.md.
const BUS_NAME = "org.gesturemap.Focus";
const OBJECT_PATH = "/org/gesturemap/Focus";
const INTERFACE = "org.gesturemap.Focus1";

// Plasma 6 names the active window activeWindow, Plasma 5 activeClient.
function activeWindow() {
    return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient;
}

function sendFocus() {
    const window = activeWindow();
    // resourceClass is the X11 class, or the Wayland app_id.
    const id = window ? String(window.resourceClass) : "";
    const title = window ? String(window.caption) : "";
    const pid = window && window.pid > 0 ? window.pid : 0;
    callDBus(BUS_NAME, OBJECT_PATH, INTERFACE, "FocusChanged", id, title, pid);
}

let followed = null;
function follow(window) {
    if (followed) followed.captionChanged.disconnect(sendFocus);
    followed = window;
    if (followed) followed.captionChanged.connect(sendFocus);
    sendFocus();
}

if (workspace.windowActivated !== undefined) {
    workspace.windowActivated.connect(follow);
} else {
    workspace.clientActivated.connect(follow);
}
follow(activeWindow());
