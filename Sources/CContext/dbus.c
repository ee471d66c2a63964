#include "CContext.h"
#include "loader.h"

#include <dbus/dbus.h>
#include <stdlib.h>

/* libdbus's entry points, loaded at run time. */
static struct {
    GM_PTR(dbus_error_init);
    GM_PTR(dbus_error_free);
    GM_PTR(dbus_error_is_set);
    GM_PTR(dbus_connection_open_private);
    GM_PTR(dbus_bus_register);
    GM_PTR(dbus_bus_request_name);
    GM_PTR(dbus_connection_set_exit_on_disconnect);
    GM_PTR(dbus_connection_get_unix_fd);
    GM_PTR(dbus_connection_read_write);
    GM_PTR(dbus_connection_pop_message);
    GM_PTR(dbus_connection_send);
    GM_PTR(dbus_connection_flush);
    GM_PTR(dbus_connection_close);
    GM_PTR(dbus_connection_unref);
    GM_PTR(dbus_connection_get_is_connected);
    GM_PTR(dbus_message_get_type);
    GM_PTR(dbus_message_get_interface);
    GM_PTR(dbus_message_get_member);
    GM_PTR(dbus_message_get_path);
    GM_PTR(dbus_message_get_no_reply);
    GM_PTR(dbus_message_is_signal);
    GM_PTR(dbus_message_iter_init);
    GM_PTR(dbus_message_iter_get_arg_type);
    GM_PTR(dbus_message_iter_get_basic);
    GM_PTR(dbus_message_iter_next);
    GM_PTR(dbus_message_new_method_return);
    GM_PTR(dbus_message_new_error);
    GM_PTR(dbus_message_append_args);
    GM_PTR(dbus_message_unref);
} db;
static int db_loaded;

static int load_dbus(char *error, size_t size) {
    if (db_loaded) return 1;
    static const char *const names[] = {"libdbus-1.so.3", "libdbus-1.so", NULL};
    void *lib = gm_context_dlopen(names, "libdbus (D-Bus)", "libdbus-1-3", error, size);
    if (!lib) return 0;
#define L(symbol) GM_LOAD(lib, db, symbol, error, size)
    if (!(L(dbus_error_init) && L(dbus_error_free) && L(dbus_error_is_set) && L(dbus_connection_open_private) &&
          L(dbus_bus_register) && L(dbus_bus_request_name) && L(dbus_connection_set_exit_on_disconnect) &&
          L(dbus_connection_get_unix_fd) && L(dbus_connection_read_write) && L(dbus_connection_pop_message) &&
          L(dbus_connection_send) && L(dbus_connection_flush) && L(dbus_connection_close) &&
          L(dbus_connection_unref) && L(dbus_connection_get_is_connected) && L(dbus_message_get_type) &&
          L(dbus_message_get_interface) && L(dbus_message_get_member) && L(dbus_message_get_path) &&
          L(dbus_message_get_no_reply) && L(dbus_message_is_signal) && L(dbus_message_iter_init) &&
          L(dbus_message_iter_get_arg_type) && L(dbus_message_iter_get_basic) && L(dbus_message_iter_next) &&
          L(dbus_message_new_method_return) && L(dbus_message_new_error) && L(dbus_message_append_args) &&
          L(dbus_message_unref)))
        return 0;
#undef L
    db_loaded = 1;
    return 1;
}

struct gm_dbus {
    DBusConnection *c;
    char *name, *path, *interface;
    int disconnected;
};

gm_dbus *gm_dbus_open(const char *address, const char *name, const char *path, const char *interface, char *error,
                      size_t size) {
    if (!load_dbus(error, size)) return NULL;
    char fallback[512];
    if (!address) address = getenv("DBUS_SESSION_BUS_ADDRESS");
    if (!address || !*address) {
        /* systemd's user bus; never autolaunch a bus of our own. */
        const char *runtime = getenv("XDG_RUNTIME_DIR");
        if (!runtime) {
            gm_context_error(error, size, "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set");
            return NULL;
        }
        snprintf(fallback, sizeof fallback, "unix:path=%s/bus", runtime);
        address = fallback;
    }
    DBusError e;
    db.dbus_error_init(&e);
    DBusConnection *c = db.dbus_connection_open_private(address, &e);
    if (!c || !db.dbus_bus_register(c, &e)) {
        gm_context_error(error, size, "cannot connect to the session bus %s: %s", address,
                         db.dbus_error_is_set(&e) ? e.message : "unknown error");
        db.dbus_error_free(&e);
        if (c) {
            db.dbus_connection_close(c);
            db.dbus_connection_unref(c);
        }
        return NULL;
    }
    db.dbus_connection_set_exit_on_disconnect(c, FALSE);
    /* The newest gesturemap takes the name; an earlier one waits in the queue and
     * gets it back when the newer one exits. */
    int result = db.dbus_bus_request_name(c, name, DBUS_NAME_FLAG_ALLOW_REPLACEMENT | DBUS_NAME_FLAG_REPLACE_EXISTING, &e);
    if (result < 0) {
        gm_context_error(error, size, "cannot take the name %s on the session bus: %s", name,
                         db.dbus_error_is_set(&e) ? e.message : "unknown error");
        db.dbus_error_free(&e);
        db.dbus_connection_close(c);
        db.dbus_connection_unref(c);
        return NULL;
    }
    gm_dbus *d = calloc(1, sizeof *d);
    if (!d) {
        db.dbus_connection_close(c);
        db.dbus_connection_unref(c);
        gm_context_error(error, size, "out of memory");
        return NULL;
    }
    d->c = c;
    d->name = strdup(name);
    d->path = strdup(path);
    d->interface = strdup(interface);
    return d;
}

int gm_dbus_fd(const gm_dbus *d) {
    int fd = -1;
    return db.dbus_connection_get_unix_fd(d->c, &fd) ? fd : -1;
}

int gm_dbus_read(gm_dbus *d) {
    if (!db.dbus_connection_read_write(d->c, 0)) d->disconnected = 1;
    return d->disconnected ? -1 : 0;
}

static void reply(gm_dbus *d, DBusMessage *call, const char *error_name, const char *text) {
    if (db.dbus_message_get_no_reply(call)) return;
    DBusMessage *answer = error_name ? db.dbus_message_new_error(call, error_name, text) : db.dbus_message_new_method_return(call);
    if (!answer) return;
    if (!error_name && text) db.dbus_message_append_args(answer, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    db.dbus_connection_send(d->c, answer, NULL);
    db.dbus_connection_flush(d->c);
    db.dbus_message_unref(answer);
}

static void copy(char *out, size_t size, const char *text) { snprintf(out, size, "%s", text ? text : ""); }

/* FocusChanged(s id, s title, u pid): the pid may come as any integer or a
 * double (a KWin script's numbers), or be left out. */
static const char *read_focus(DBusMessage *m, gm_window *w) {
    memset(w, 0, sizeof *w);
    w->pid = -1;
    DBusMessageIter it;
    if (!db.dbus_message_iter_init(m, &it) || db.dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_STRING)
        return "FocusChanged takes (s id, s title, u pid)";
    const char *text = NULL;
    db.dbus_message_iter_get_basic(&it, &text);
    copy(w->id, sizeof w->id, text);
    if (!db.dbus_message_iter_next(&it)) return NULL;
    if (db.dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_STRING) return "FocusChanged: the title must be a string";
    db.dbus_message_iter_get_basic(&it, &text);
    copy(w->title, sizeof w->title, text);
    if (!db.dbus_message_iter_next(&it)) return NULL;
    DBusBasicValue value;
    memset(&value, 0, sizeof value);
    int type = db.dbus_message_iter_get_arg_type(&it);
    /* libdbus aborts the process when get_basic meets a container (a variant,
     * an array), and dups a descriptor it meets: the type decides first. */
    switch (type) {
    case DBUS_TYPE_UINT32: case DBUS_TYPE_INT32: case DBUS_TYPE_UINT64: case DBUS_TYPE_INT64: case DBUS_TYPE_DOUBLE:
        db.dbus_message_iter_get_basic(&it, &value);
        break;
    default: return "FocusChanged: the pid must be a number";
    }
    switch (type) {
    case DBUS_TYPE_UINT32: w->pid = value.u32; break;
    case DBUS_TYPE_INT32: w->pid = value.i32; break;
    case DBUS_TYPE_UINT64: w->pid = (int64_t)value.u64; break;
    case DBUS_TYPE_INT64: w->pid = value.i64; break;
    case DBUS_TYPE_DOUBLE:
        w->pid = value.dbl >= 0 && value.dbl < 4294967296.0 ? (int64_t)value.dbl : -1;
        break;
    default: return "FocusChanged: the pid must be a number";
    }
    if (w->pid <= 0) w->pid = -1;
    return NULL;
}

static const char *introspection =
    "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
    "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"
    "<node><interface name=\"%s\">"
    "<method name=\"FocusChanged\"><arg name=\"id\" type=\"s\" direction=\"in\"/>"
    "<arg name=\"title\" type=\"s\" direction=\"in\"/><arg name=\"pid\" type=\"u\" direction=\"in\"/></method>"
    "<method name=\"WindowsChanged\"><arg name=\"windows\" type=\"s\" direction=\"in\"/></method>"
    "</interface><interface name=\"org.freedesktop.DBus.Introspectable\">"
    "<method name=\"Introspect\"><arg type=\"s\" direction=\"out\"/></method></interface></node>\n";

gm_dbus_kind gm_dbus_next(gm_dbus *d, gm_dbus_update *out) {
    memset(out, 0, sizeof *out);
    for (;;) {
        if (d->disconnected) return out->kind = GM_DBUS_DISCONNECTED;
        DBusMessage *m = db.dbus_connection_pop_message(d->c);
        if (!m) {
            if (!db.dbus_connection_get_is_connected(d->c)) {
                d->disconnected = 1;
                continue;
            }
            return GM_DBUS_NOTHING;
        }
        const char *member = db.dbus_message_get_member(m);
        const char *interface = db.dbus_message_get_interface(m);
        const char *path = db.dbus_message_get_path(m);
        int type = db.dbus_message_get_type(m);
        if (type == DBUS_MESSAGE_TYPE_SIGNAL) {
            if (db.dbus_message_is_signal(m, "org.freedesktop.DBus.Local", "Disconnected")) {
                d->disconnected = 1;
            } else if (db.dbus_message_is_signal(m, "org.freedesktop.DBus", "NameAcquired") ||
                       db.dbus_message_is_signal(m, "org.freedesktop.DBus", "NameLost")) {
                DBusMessageIter it;
                const char *name = NULL;
                if (db.dbus_message_iter_init(m, &it) && db.dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_STRING)
                    db.dbus_message_iter_get_basic(&it, &name);
                if (name && strcmp(name, d->name) == 0)
                    out->kind = strcmp(member, "NameAcquired") == 0 ? GM_DBUS_NAME_ACQUIRED : GM_DBUS_NAME_LOST;
            }
        } else if (type == DBUS_MESSAGE_TYPE_METHOD_CALL && member) {
            int ours = path && strcmp(path, d->path) == 0;
            int our_interface = !interface || strcmp(interface, d->interface) == 0;
            if (ours && our_interface && strcmp(member, "FocusChanged") == 0) {
                const char *problem = read_focus(m, &out->window);
                if (problem) {
                    reply(d, m, DBUS_ERROR_INVALID_ARGS, problem);
                    out->kind = GM_DBUS_BAD_CALL;
                    out->text = strdup(problem);
                } else {
                    reply(d, m, NULL, NULL);
                    out->kind = GM_DBUS_FOCUS;
                }
            } else if (ours && our_interface && strcmp(member, "WindowsChanged") == 0) {
                DBusMessageIter it;
                const char *json = NULL;
                if (db.dbus_message_iter_init(m, &it) && db.dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_STRING)
                    db.dbus_message_iter_get_basic(&it, &json);
                if (json) {
                    reply(d, m, NULL, NULL);
                    out->kind = GM_DBUS_WINDOWS;
                    out->text = strdup(json);
                } else {
                    reply(d, m, DBUS_ERROR_INVALID_ARGS, "WindowsChanged takes (s windows_json)");
                    out->kind = GM_DBUS_BAD_CALL;
                    out->text = strdup("WindowsChanged takes (s windows_json)");
                }
            } else if (interface && strcmp(interface, "org.freedesktop.DBus.Introspectable") == 0 &&
                       strcmp(member, "Introspect") == 0) {
                char xml[2048];
                snprintf(xml, sizeof xml, introspection, d->interface);
                reply(d, m, NULL, xml);
            } else if (interface && strcmp(interface, "org.freedesktop.DBus.Peer") == 0 && strcmp(member, "Ping") == 0) {
                reply(d, m, NULL, NULL);
            } else {
                reply(d, m, DBUS_ERROR_UNKNOWN_METHOD, "gesturemap serves FocusChanged and WindowsChanged only");
            }
        }
        db.dbus_message_unref(m);
        if (out->kind != GM_DBUS_NOTHING) return out->kind;
    }
}

void gm_dbus_update_free(gm_dbus_update *u) {
    free(u->text);
    u->text = NULL;
}

void gm_dbus_close(gm_dbus *d) {
    if (!d) return;
    db.dbus_connection_close(d->c);
    db.dbus_connection_unref(d->c);
    free(d->name), free(d->path), free(d->interface);
    free(d);
}
