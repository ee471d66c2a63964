#include "CContext.h"
#include "loader.h"

#include <errno.h>
#include <stdlib.h>
#include <wayland-client.h>

/* libwayland-client's entry points, loaded at run time. The inline helpers of
 * wayland-client-protocol.h name interface symbols the linker would have to
 * resolve, so requests are marshalled here through the loaded functions. */
static struct {
    GM_PTR(wl_display_connect);
    GM_PTR(wl_display_disconnect);
    GM_PTR(wl_display_get_fd);
    GM_PTR(wl_display_dispatch);
    GM_PTR(wl_display_flush);
    GM_PTR(wl_display_get_error);
    GM_PTR(wl_proxy_marshal_constructor);
    GM_PTR(wl_proxy_marshal_constructor_versioned);
    GM_PTR(wl_proxy_marshal);
    GM_PTR(wl_proxy_add_listener);
    GM_PTR(wl_proxy_destroy);
    GM_PTR(wl_proxy_get_version);
    const struct wl_interface *registry_interface;
    const struct wl_interface *seat_interface;
    const struct wl_interface *output_interface;
    const struct wl_interface *surface_interface;
    const struct wl_interface *callback_interface;
} wl;
static int wl_loaded;

/* zwlr_foreign_toplevel_management_unstable_v1, version 3, written out from the
 * protocol's description: requests and events in their wire order. */
static const struct wl_interface handle_interface;
static const struct wl_interface *types[] = {
    NULL, NULL, NULL, NULL, /* arguments of no interface */
    &handle_interface,      /* manager.toplevel: new_id */
    NULL,                   /* wl_seat (activate), filled at load */
    NULL,                   /* wl_output (output_enter, output_leave, set_fullscreen), filled at load */
    &handle_interface,      /* parent */
    NULL,                   /* wl_surface (set_rectangle), filled at load, then its four ints */
    NULL, NULL, NULL, NULL,
};
enum { T_NONE = 0, T_HANDLE_NEW = 4, T_SEAT = 5, T_OUTPUT = 6, T_PARENT = 7, T_SURFACE = 8 };

static const struct wl_message manager_requests[] = {{"stop", "", types + T_NONE}};
static const struct wl_message manager_events[] = {
    {"toplevel", "n", types + T_HANDLE_NEW},
    {"finished", "", types + T_NONE},
};
static const struct wl_interface manager_interface = {
    "zwlr_foreign_toplevel_manager_v1", 3, 1, manager_requests, 2, manager_events,
};
static const struct wl_message handle_requests[] = {
    {"set_maximized", "", types + T_NONE},     {"unset_maximized", "", types + T_NONE},
    {"set_minimized", "", types + T_NONE},     {"unset_minimized", "", types + T_NONE},
    {"activate", "o", types + T_SEAT},         {"close", "", types + T_NONE},
    {"set_rectangle", "oiiii", types + T_SURFACE}, {"destroy", "", types + T_NONE},
    {"set_fullscreen", "2?o", types + T_OUTPUT}, {"unset_fullscreen", "2", types + T_NONE},
};
static const struct wl_message handle_events[] = {
    {"title", "s", types + T_NONE},        {"app_id", "s", types + T_NONE},
    {"output_enter", "o", types + T_OUTPUT}, {"output_leave", "o", types + T_OUTPUT},
    {"state", "a", types + T_NONE},        {"done", "", types + T_NONE},
    {"closed", "", types + T_NONE},        {"parent", "3?o", types + T_PARENT},
};
static const struct wl_interface handle_interface = {
    "zwlr_foreign_toplevel_handle_v1", 3, 10, handle_requests, 8, handle_events,
};
enum { HANDLE_DESTROY = 7, STATE_ACTIVATED = 2, REGISTRY_BIND = 0, DISPLAY_SYNC = 0, DISPLAY_GET_REGISTRY = 1 };

static int load_wayland(char *error, size_t size) {
    if (wl_loaded) return 1;
    static const char *const names[] = {"libwayland-client.so.0", "libwayland-client.so", NULL};
    void *lib = gm_context_dlopen(names, "libwayland-client (Wayland)", "libwayland-client0", error, size);
    if (!lib) return 0;
    if (!(GM_LOAD(lib, wl, wl_display_connect, error, size) && GM_LOAD(lib, wl, wl_display_disconnect, error, size) &&
          GM_LOAD(lib, wl, wl_display_get_fd, error, size) && GM_LOAD(lib, wl, wl_display_dispatch, error, size) &&
          GM_LOAD(lib, wl, wl_display_flush, error, size) &&
          GM_LOAD(lib, wl, wl_display_get_error, error, size) &&
          GM_LOAD(lib, wl, wl_proxy_marshal_constructor, error, size) &&
          GM_LOAD(lib, wl, wl_proxy_marshal_constructor_versioned, error, size) &&
          GM_LOAD(lib, wl, wl_proxy_marshal, error, size) && GM_LOAD(lib, wl, wl_proxy_add_listener, error, size) &&
          GM_LOAD(lib, wl, wl_proxy_destroy, error, size) && GM_LOAD(lib, wl, wl_proxy_get_version, error, size)))
        return 0;
    wl.registry_interface = dlsym(lib, "wl_registry_interface");
    wl.seat_interface = dlsym(lib, "wl_seat_interface");
    wl.output_interface = dlsym(lib, "wl_output_interface");
    wl.surface_interface = dlsym(lib, "wl_surface_interface");
    wl.callback_interface = dlsym(lib, "wl_callback_interface");
    if (!wl.registry_interface || !wl.callback_interface) {
        gm_context_error(error, size, "libwayland-client has no wl_registry_interface or wl_callback_interface");
        return 0;
    }
    types[T_SEAT] = wl.seat_interface;
    types[T_SURFACE] = wl.surface_interface;
    types[T_OUTPUT] = wl.output_interface;
    wl_loaded = 1;
    return 1;
}


/* Opening is two exchanges, each ended by a wl_display.sync callback: the
 * globals (is the toplevel manager offered?), then the toplevels and their
 * first states. Neither is waited for: the answers come through dispatch. */
enum stage { AWAITING_GLOBALS, AWAITING_TOPLEVELS, READY, NO_MANAGER };

struct gm_wl {
    struct wl_display *display;
    enum stage stage;
    struct wl_proxy *sync;
    struct wl_proxy *registry;
    struct wl_proxy *manager;
    uint32_t manager_name, manager_version;
    gm_toplevels *table;
    /* The list became complete (a change to report even with no toplevel). */
    int changed;
    int finished;
};

static void on_title(void *data, struct wl_proxy *handle, const char *title) {
    gm_toplevels_title(((gm_wl *)data)->table, handle, title);
}
static void on_app_id(void *data, struct wl_proxy *handle, const char *app_id) {
    gm_toplevels_app_id(((gm_wl *)data)->table, handle, app_id);
}
static void on_output(void *data, struct wl_proxy *handle, struct wl_proxy *output) {
    (void)data, (void)handle, (void)output;
}
static void on_state(void *data, struct wl_proxy *handle, struct wl_array *state) {
    gm_toplevels_state(((gm_wl *)data)->table, handle, state->data, state->size / sizeof(uint32_t));
}
static void on_done(void *data, struct wl_proxy *handle) { gm_toplevels_done(((gm_wl *)data)->table, handle); }
static void on_closed(void *data, struct wl_proxy *handle) {
    if (!gm_toplevels_remove(((gm_wl *)data)->table, handle)) return;
    wl.wl_proxy_marshal(handle, HANDLE_DESTROY);
    wl.wl_proxy_destroy(handle);
}
static void on_parent(void *data, struct wl_proxy *handle, struct wl_proxy *parent) {
    (void)data, (void)handle, (void)parent;
}
static const struct {
    void (*title)(void *, struct wl_proxy *, const char *);
    void (*app_id)(void *, struct wl_proxy *, const char *);
    void (*output_enter)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*output_leave)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*state)(void *, struct wl_proxy *, struct wl_array *);
    void (*done)(void *, struct wl_proxy *);
    void (*closed)(void *, struct wl_proxy *);
    void (*parent)(void *, struct wl_proxy *, struct wl_proxy *);
} handle_listener = {on_title, on_app_id, on_output, on_output, on_state, on_done, on_closed, on_parent};

static void on_toplevel(void *data, struct wl_proxy *manager, struct wl_proxy *handle) {
    (void)manager;
    gm_wl *w = data;
    /* Past the table's limit (or its memory) a toplevel is let go at once. */
    if (!gm_toplevels_add(w->table, handle)) {
        wl.wl_proxy_marshal(handle, HANDLE_DESTROY);
        wl.wl_proxy_destroy(handle);
        return;
    }
    wl.wl_proxy_add_listener(handle, (void (**)(void))&handle_listener, w);
}
static void on_finished(void *data, struct wl_proxy *manager) {
    (void)manager;
    ((gm_wl *)data)->finished = 1;
}
static const struct {
    void (*toplevel)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*finished)(void *, struct wl_proxy *);
} manager_listener = {on_toplevel, on_finished};

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    gm_wl *w = data;
    if (strcmp(interface, manager_interface.name) == 0) {
        w->manager_name = name;
        w->manager_version = version;
    }
}
static void on_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)registry;
    gm_wl *w = data;
    if (w->manager && name == w->manager_name) w->finished = 1;
}
static const struct {
    void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
    void (*global_remove)(void *, struct wl_proxy *, uint32_t);
} registry_listener = {on_global, on_global_remove};

static void on_sync_done(void *data, struct wl_proxy *callback, uint32_t serial);
static const struct {
    void (*done)(void *, struct wl_proxy *, uint32_t);
} sync_listener = {on_sync_done};

/* Asks for a callback once the compositor has handled every request before it. */
static int ask_sync(gm_wl *w) {
    w->sync = wl.wl_proxy_marshal_constructor((struct wl_proxy *)w->display, DISPLAY_SYNC, wl.callback_interface, NULL);
    if (!w->sync) return 0;
    wl.wl_proxy_add_listener(w->sync, (void (**)(void))&sync_listener, w);
    return 1;
}

static void on_sync_done(void *data, struct wl_proxy *callback, uint32_t serial) {
    (void)serial;
    gm_wl *w = data;
    wl.wl_proxy_destroy(callback);
    w->sync = NULL;
    if (w->stage == AWAITING_GLOBALS) {
        if (!w->manager_name) {
            w->stage = NO_MANAGER;
            return;
        }
        uint32_t version = w->manager_version < 3 ? w->manager_version : 3;
        w->manager = wl.wl_proxy_marshal_constructor_versioned(w->registry, REGISTRY_BIND, &manager_interface, version,
                                                               w->manager_name, manager_interface.name, version, NULL);
        if (!w->manager) {
            w->finished = 1;
            return;
        }
        wl.wl_proxy_add_listener(w->manager, (void (**)(void))&manager_listener, w);
        w->stage = AWAITING_TOPLEVELS;
        if (!ask_sync(w)) w->finished = 1;
    } else if (w->stage == AWAITING_TOPLEVELS) {
        w->stage = READY;
        w->changed = 1;
    }
}

gm_wl *gm_wl_open(const char *display, char *error, size_t size) {
    if (!load_wayland(error, size)) return NULL;
    struct wl_display *d = wl.wl_display_connect(display);
    if (!d) {
        const char *name = display ? display : getenv("WAYLAND_DISPLAY");
        gm_context_error(error, size, "cannot connect to the Wayland display %s: %s", name ? name : "wayland-0",
                         strerror(errno));
        return NULL;
    }
    gm_wl *w = calloc(1, sizeof *w);
    if (!w) {
        wl.wl_display_disconnect(d);
        gm_context_error(error, size, "out of memory");
        return NULL;
    }
    w->display = d;
    w->stage = AWAITING_GLOBALS;
    w->table = gm_toplevels_new();
    if (!w->table) goto broken;
    w->registry = wl.wl_proxy_marshal_constructor((struct wl_proxy *)d, DISPLAY_GET_REGISTRY, wl.registry_interface, NULL);
    if (!w->registry) goto broken;
    wl.wl_proxy_add_listener(w->registry, (void (**)(void))&registry_listener, w);
    if (!ask_sync(w)) goto broken;
    /* A few dozen bytes: they fit in the socket even when nobody reads it. */
    if (wl.wl_display_flush(d) < 0 && errno != EAGAIN) goto broken;
    return w;
broken:
    gm_context_error(error, size, "the Wayland connection failed: %s", strerror(wl.wl_display_get_error(d)));
    gm_wl_close(w);
    return NULL;
}

int gm_wl_ready(const gm_wl *w) { return w->stage == READY; }

int gm_wl_fd(const gm_wl *w) { return wl.wl_display_get_fd(w->display); }

int gm_wl_dispatch(gm_wl *w, char *error, size_t size) {
    w->changed = 0;
    /* The caller's poll saw the descriptor readable, so this reads at once. */
    if (wl.wl_display_dispatch(w->display) < 0) {
        int code = wl.wl_display_get_error(w->display);
        gm_context_error(error, size, "the Wayland connection was lost: %s", strerror(code ? code : EPIPE));
        return -1;
    }
    wl.wl_display_flush(w->display);
    if (w->stage == NO_MANAGER) {
        gm_context_error(error, size,
                         "the compositor does not offer zwlr_foreign_toplevel_manager_v1 (wlroots' list of windows); "
                         "choose another --app-source");
        return -1;
    }
    if (w->finished) {
        gm_context_error(error, size, "the compositor stopped its list of windows");
        return -1;
    }
    return gm_toplevels_take_changed(w->table) || w->changed;
}

int gm_wl_windows(const gm_wl *w, gm_window *out, int max) { return gm_toplevels_list(w->table, out, max); }

void gm_wl_close(gm_wl *w) {
    if (!w) return;
    if (w->table) {
        for (int i = 0; i < gm_toplevels_count(w->table); i++)
            wl.wl_proxy_destroy((struct wl_proxy *)gm_toplevels_key(w->table, i));
        gm_toplevels_free(w->table);
    }
    if (w->sync) wl.wl_proxy_destroy(w->sync);
    if (w->manager) wl.wl_proxy_destroy(w->manager);
    if (w->registry) wl.wl_proxy_destroy(w->registry);
    wl.wl_display_disconnect(w->display);
    free(w);
}
