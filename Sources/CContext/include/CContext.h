#ifndef GESTUREMAP_CCONTEXT_H
#define GESTUREMAP_CCONTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The desktop's side of a gesture: which application has the focus.
 *
 * libxcb, libwayland-client and libdbus are loaded at run time (dlopen), with
 * function pointers typed from their headers, so gesturemap runs on a kiosk that
 * has none of them. Every `open` below fails with a message when its library is
 * missing. Nothing here keeps a global connection: each handle is one connection. */

/* One window as a backend sees it. Strings are NUL-terminated and cut to fit. */
typedef struct {
    char id[256];     /* X11 WM_CLASS class, or the Wayland app_id */
    char title[512];
    int64_t pid;      /* -1 when the backend cannot tell */
    uint64_t handle;  /* the X11 window id, or an index: stable while the window lives */
    int focused;
} gm_window;

/* ---- X11 through libxcb ---- */
typedef struct gm_x11 gm_x11;
/* How long an answer may take while opening or listing windows. */
#define GM_X11_ANSWER_SECONDS 2.0
/* `display` NULL means $DISPLAY. NULL and a message in `error` on failure,
 * including a server that does not answer within GM_X11_ANSWER_SECONDS. */
gm_x11 *gm_x11_open(const char *display, char *error, size_t error_size);
int gm_x11_fd(const gm_x11 *x);
uint32_t gm_x11_root(const gm_x11 *x);
/* What gm_x11_drain saw. */
enum { GM_X11_ACTIVE_CHANGED = 1, GM_X11_TITLE_CHANGED = 2, GM_X11_FOCUS_MOVED = 4 };
/* Reads the events the server sent: a mask of the above (0 when none), or -1
 * when the connection is gone. Never blocks. */
int gm_x11_drain(gm_x11 *x);

/* The engine's loop asks without waiting: each ask returns the request's
 * sequence number, gm_x11_send flushes, and each answer is taken, never
 * awaited, with the gm_x11_*_answer that fits its ask. Those return 1 with
 * the answer, 0 when it has not come yet, 2 when the server refused (the
 * window has gone), -1 when the connection is gone. The X server answers in
 * the order it was asked. */
enum { GM_X11_ACTIVE_WINDOW, GM_X11_CLIENT_LIST, GM_X11_CLASS, GM_X11_NET_NAME, GM_X11_NAME, GM_X11_PID };
typedef struct {
    uint32_t type;   /* 0 (None) when the window has no such property */
    uint8_t format;  /* 8 for text, 32 for cardinals and windows */
    uint32_t length; /* bytes in `value` */
    uint8_t value[4096];
} gm_x11_property_value;
typedef struct {
    uint32_t parent;
    uint32_t total;  /* children the server named */
    uint32_t count;  /* of them in `children` */
    uint32_t children[256];
} gm_x11_tree;
/* `window` 0 means the root. */
unsigned gm_x11_ask_property(gm_x11 *x, uint32_t window, int property);
unsigned gm_x11_ask_input_focus(gm_x11 *x);
unsigned gm_x11_ask_tree(gm_x11 *x, uint32_t window);
/* 0, or -1 when the connection is gone. */
int gm_x11_send(gm_x11 *x);
int gm_x11_property_answer(gm_x11 *x, unsigned request, gm_x11_property_value *out);
int gm_x11_focus_answer(gm_x11 *x, unsigned request, uint32_t *window);
int gm_x11_tree_answer(gm_x11 *x, unsigned request, gm_x11_tree *out);
/* Follow this window's title changes (and stop following the last one's). */
void gm_x11_watch(gm_x11 *x, uint32_t window);

/* The managed windows (_NET_CLIENT_LIST, else the root's mapped children with a
 * WM_CLASS), for `gesturemap apps`: waits for the answers, at most
 * GM_X11_ANSWER_SECONDS in all. Returns how many were found (at most `max`
 * are written; `focused` is left 0), -1 when the connection is gone, -2 when
 * the server did not answer in time. */
int gm_x11_windows(gm_x11 *x, gm_window *out, int max);
void gm_x11_close(gm_x11 *x);

/* ---- wlroots compositors through zwlr_foreign_toplevel_manager_v1 ---- */
typedef struct gm_wl gm_wl;
/* `display` NULL means $WAYLAND_DISPLAY. Connects and asks for the globals
 * and the toplevels without waiting: the answers come through gm_wl_dispatch,
 * and gm_wl_ready says when the list of windows is complete. */
gm_wl *gm_wl_open(const char *display, char *error, size_t error_size);
int gm_wl_ready(const gm_wl *w);
int gm_wl_fd(const gm_wl *w);
/* Reads and handles what the compositor sent: 1 when a toplevel changed, 0 when
 * not, -1 when the connection or the protocol is gone (message in `error`). */
int gm_wl_dispatch(gm_wl *w, char *error, size_t error_size);
int gm_wl_windows(const gm_wl *w, gm_window *out, int max);
void gm_wl_close(gm_wl *w);

/* The compositor's toplevels, by the key of each (its Wayland proxy), apart
 * from the connection: what they say is kept as the protocol says, each text
 * cut to what a gm_window holds, and at most GM_TOPLEVEL_LIMIT of them. */
typedef struct gm_toplevels gm_toplevels;
#define GM_TOPLEVEL_LIMIT 4096
#define GM_TOPLEVEL_STATE_ACTIVATED 2
gm_toplevels *gm_toplevels_new(void);
/* 0 when the table is full, out of memory, or already holds `key`: the caller
 * lets the toplevel go. */
int gm_toplevels_add(gm_toplevels *t, const void *key);
void gm_toplevels_title(gm_toplevels *t, const void *key, const char *title);
void gm_toplevels_app_id(gm_toplevels *t, const void *key, const char *app_id);
void gm_toplevels_state(gm_toplevels *t, const void *key, const uint32_t *states, size_t count);
/* The events since the last `done` take effect. */
void gm_toplevels_done(gm_toplevels *t, const void *key);
/* 1 when `key` was there (the caller destroys its proxy), 0 when not. */
int gm_toplevels_remove(gm_toplevels *t, const void *key);
/* Whether anything listed changed since last asked; asking clears it. */
int gm_toplevels_take_changed(gm_toplevels *t);
int gm_toplevels_count(const gm_toplevels *t);
const void *gm_toplevels_key(const gm_toplevels *t, int index);
/* Fills up to `max` windows; returns how many toplevels there are. */
int gm_toplevels_list(const gm_toplevels *t, gm_window *out, int max);
void gm_toplevels_free(gm_toplevels *t);

/* ---- the session D-Bus, for the GNOME Shell extension and the KWin script ---- */
typedef struct gm_dbus gm_dbus;
/* Connects to `address` (NULL: $DBUS_SESSION_BUS_ADDRESS, else
 * unix:path=$XDG_RUNTIME_DIR/bus) and sends, without waiting for any answer,
 * the authentication, Hello, a watch on `shell` (the desktop's well-known
 * name: org.gnome.Shell, org.kde.KWin), and a request for `name`, queued
 * behind an earlier owner and never given up to a later one. Serves `path`'s
 * interface `interface`: FocusChanged(s id, s title, u pid) and
 * WindowsChanged(s json), to the unique name that owns `shell` and no other
 * (nor to one that took the name from a live owner).
 * Everything after the connect(2) arrives through gm_dbus_read/gm_dbus_next. */
gm_dbus *gm_dbus_open(const char *address, const char *name, const char *path, const char *interface,
                      const char *shell, char *error, size_t error_size);
int gm_dbus_fd(const gm_dbus *d);

typedef enum {
    GM_DBUS_NOTHING = 0,
    GM_DBUS_FOCUS = 1,        /* window: the focused app ("" id: nothing focused) */
    GM_DBUS_WINDOWS = 2,      /* text: the JSON list of windows */
    GM_DBUS_NAME_ACQUIRED = 3,
    GM_DBUS_NAME_LOST = 4,
    GM_DBUS_BAD_CALL = 5,     /* text: what was wrong with a call */
    GM_DBUS_DISCONNECTED = 6, /* text: why */
    GM_DBUS_REFUSED = 7,      /* text: the caller's unique name; number: 1 when the shell is on the bus */
    GM_DBUS_TOO_BIG = 8,      /* number: the size of a message that was skipped */
    GM_DBUS_NAME_QUEUED = 9,  /* text: the unique name holding `name` (NULL: unknown); number: its pid or -1 */
    GM_DBUS_SHELL_TAKEN = 10, /* text: who took the shell's name from its live owner; no calls until the shell has it back */
} gm_dbus_kind;

typedef struct {
    gm_dbus_kind kind;
    gm_window window;
    char *text; /* malloc'd or NULL; free with gm_dbus_update_free */
    int64_t number;
} gm_dbus_update;

/* The caps (bytes): a longer message is skipped unread, a longer id refused,
 * a longer title cut at a character boundary. */
#define GM_DBUS_MESSAGE_CAP 65536
#define GM_DBUS_ID_CAP 255
#define GM_DBUS_TITLE_CAP 511

/* Writes what waits and reads one chunk (never blocks): 0, or -1 once the
 * connection is gone (gm_dbus_next then says why). */
int gm_dbus_read(gm_dbus *d);
/* Bytes still waiting to be written (the bus's socket was full), after
 * trying once more without blocking; -1 once the connection is gone. */
long gm_dbus_write_pending(gm_dbus *d);
/* The updates in what was read, one at a time until GM_DBUS_NOTHING. Calls are
 * answered here. */
gm_dbus_kind gm_dbus_next(gm_dbus *d, gm_dbus_update *out);
void gm_dbus_update_free(gm_dbus_update *u);
void gm_dbus_close(gm_dbus *d);

/* For the fuzz target: a handle with no socket, whose requests went nowhere
 * (Hello had serial 1, AddMatch 2, GetNameOwner for `shell` 3, RequestName 4);
 * gm_dbus_feed hands it bytes as if the bus had sent them, starting with the
 * authentication's answer ("OK <guid>\r\n"), and returns how many it took (0
 * when its buffer is full: call gm_dbus_next first). NULL when libdbus cannot
 * be loaded. */
gm_dbus *gm_dbus_open_detached(const char *name, const char *path, const char *interface, const char *shell,
                               char *error, size_t error_size);
size_t gm_dbus_feed(gm_dbus *d, const void *bytes, size_t count);

/* ---- a helper command (--app-command) ---- */
/* Runs `/bin/sh -c command` with stdin from /dev/null, stdout into a pipe whose
 * read end (non-blocking, close-on-exec) goes to `fd`, stderr inherited, in a
 * process group of its own. 0, or an errno. */
int gm_context_spawn_shell(const char *command, pid_t *pid, int *fd);

#endif
