/* The bus's byte stream turned into updates: the authentication line, the
 * framing (a message past the cap is skipped as it streams by), the bus's own
 * replies and signals, and the calls of the desktop's shell. */
#include "dbus_internal.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const bus_name = DBUS_SERVICE_DBUS;

gm_dbus *gm_dbus_new(const char *name, const char *path, const char *interface, const char *shell) {
    gm_dbus *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->fd = -1;
    d->in = malloc(GM_DBUS_MAX_MESSAGE);
    d->out = malloc(GM_DBUS_MAX_OUTGOING);
    d->name = strdup(name);
    d->path = strdup(path);
    d->interface = strdup(interface);
    d->shell = strdup(shell);
    d->shell_state = GM_OWNER_ASKING;
    if (!d->in || !d->out || !d->name || !d->path || !d->interface || !d->shell) {
        gm_dbus_close(d);
        return NULL;
    }
    return d;
}

void gm_dbus_set_disconnected(gm_dbus *d, const char *reason) {
    if (d->disconnected) return;
    d->disconnected = 1;
    snprintf(d->reason, sizeof d->reason, "%s", reason);
}

/* Requests always go out (there are a handful per connection); replies wait
 * for room, so a caller that never reads its answers costs nothing. */
void gm_dbus_queue(gm_dbus *d, DBusMessage *m, int is_reply) {
    if (!m) return;
    gm_db.dbus_message_set_serial(m, ++d->serial);
    char *bytes = NULL;
    int length = 0;
    if (gm_db.dbus_message_marshal(m, &bytes, &length) && length > 0) {
        size_t room = GM_DBUS_MAX_OUTGOING - d->out_len;
        if ((size_t)length <= room && (!is_reply || d->out_len + (size_t)length <= GM_DBUS_MAX_OUTGOING / 2)) {
            memcpy(d->out + d->out_len, bytes, (size_t)length);
            d->out_len += (size_t)length;
        }
        if (d->fd < 0) d->out_len = 0; /* detached: nobody to write to */
    }
    if (d->fd >= 0 && d->out_len > 0) gm_dbus_write_out(d);
    if (bytes) gm_db.dbus_free(bytes);
    gm_db.dbus_message_unref(m);
}

size_t gm_dbus_feed(gm_dbus *d, const void *bytes, size_t count) {
    if (d->in_start > 0) {
        memmove(d->in, d->in + d->in_start, d->in_end - d->in_start);
        d->in_end -= d->in_start;
        d->in_start = 0;
    }
    size_t room = GM_DBUS_MAX_MESSAGE - d->in_end;
    if (count > room) count = room;
    memcpy(d->in + d->in_end, bytes, count);
    d->in_end += count;
    return count;
}

static void reply(gm_dbus *d, DBusMessage *call, const char *error_name, const char *text) {
    if (gm_db.dbus_message_get_no_reply(call)) return;
    DBusMessage *answer = error_name ? gm_db.dbus_message_new_error(call, error_name, text)
                                     : gm_db.dbus_message_new_method_return(call);
    if (answer && !error_name && text) gm_db.dbus_message_append_args(answer, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    gm_dbus_queue(d, answer, 1);
}

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* The first string argument, when the signature says there is one. */
static const char *first_string(DBusMessage *m) {
    const char *signature = gm_db.dbus_message_get_signature(m);
    if (!signature || signature[0] != DBUS_TYPE_STRING) return NULL;
    DBusMessageIter it;
    const char *text = NULL;
    if (gm_db.dbus_message_iter_init(m, &it)) gm_db.dbus_message_iter_get_basic(&it, &text);
    return text;
}

/* Copies at most `size - 1` bytes, cut before a UTF-8 continuation byte so a
 * character is never split (D-Bus strings are valid UTF-8). */
static void copy_text(char *out, size_t size, const char *text) {
    size_t n = strlen(text);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    memcpy(out, text, n);
    out[n] = 0;
}

static const char *const focus_usage = "FocusChanged takes (s id, s title, u pid)";

/* FocusChanged(s id, s title, u pid). The signature is checked whole before
 * any argument is read: libdbus aborts the process when get_basic meets a
 * container, and dups a descriptor it meets. The pid may come as any integer
 * or a double (a KWin script's numbers), or be left out with the title. */
static const char *read_focus(DBusMessage *m, gm_window *w, char *problem, size_t size) {
    memset(w, 0, sizeof *w);
    w->pid = -1;
    const char *signature = gm_db.dbus_message_get_signature(m);
    if (!signature) signature = "";
    if (signature[0] != DBUS_TYPE_STRING) {
        snprintf(problem, size, "%s, not (%.40s)", focus_usage, signature);
        return problem;
    }
    if (signature[1] && signature[1] != DBUS_TYPE_STRING) return "FocusChanged: the title must be a string";
    int pid_type = signature[1] ? signature[2] : 0;
    if (pid_type) {
        switch (pid_type) {
        case DBUS_TYPE_UINT32: case DBUS_TYPE_INT32: case DBUS_TYPE_UINT64: case DBUS_TYPE_INT64: case DBUS_TYPE_DOUBLE:
            break;
        default: return "FocusChanged: the pid must be a number";
        }
        if (signature[3]) {
            snprintf(problem, size, "%s, not (%.40s)", focus_usage, signature);
            return problem;
        }
    }
    DBusMessageIter it;
    if (!gm_db.dbus_message_iter_init(m, &it)) return focus_usage;
    const char *text = NULL;
    gm_db.dbus_message_iter_get_basic(&it, &text);
    if (!text) return focus_usage;
    if (strlen(text) > GM_DBUS_ID_CAP) {
        snprintf(problem, size, "FocusChanged: the id is %zu bytes; at most %d", strlen(text), GM_DBUS_ID_CAP);
        return problem;
    }
    copy_text(w->id, sizeof w->id, text);
    if (!gm_db.dbus_message_iter_next(&it)) return NULL;
    text = NULL;
    gm_db.dbus_message_iter_get_basic(&it, &text);
    copy_text(w->title, sizeof w->title, text ? text : "");
    if (!gm_db.dbus_message_iter_next(&it)) return NULL;
    DBusBasicValue value;
    memset(&value, 0, sizeof value);
    gm_db.dbus_message_iter_get_basic(&it, &value);
    switch (pid_type) {
    case DBUS_TYPE_UINT32: w->pid = value.u32; break;
    case DBUS_TYPE_INT32: w->pid = value.i32; break;
    case DBUS_TYPE_UINT64: w->pid = value.u64 > INT64_MAX ? -1 : (int64_t)value.u64; break;
    case DBUS_TYPE_INT64: w->pid = value.i64; break;
    default: w->pid = value.dbl >= 0 && value.dbl < 4294967296.0 ? (int64_t)value.dbl : -1; break;
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

static DBusMessage *bus_call(const char *member) {
    return gm_db.dbus_message_new_method_call(bus_name, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, member);
}

/* Asks the bus something about `name`; the serial to know the answer by. */
static uint32_t ask_bus(gm_dbus *d, const char *member, const char *name) {
    DBusMessage *m = bus_call(member);
    if (!m) return 0;
    if (!gm_db.dbus_message_append_args(m, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID)) {
        gm_db.dbus_message_unref(m);
        return 0;
    }
    gm_dbus_queue(d, m, 0);
    return d->serial;
}

/* The shell's name has `owner` now; `handover` when it passed straight from
 * one live owner to another (a replacement, not a restart). True when the new
 * owner is not the one trusted. */
static int set_shell_owner(gm_dbus *d, const char *owner, int handover) {
    if (owner && *owner) {
        d->shell_state = GM_OWNER_KNOWN;
        copy_text(d->shell_owner, sizeof d->shell_owner, owner);
        if (!handover || !d->shell_trusted[0]) copy_text(d->shell_trusted, sizeof d->shell_trusted, owner);
        return strcmp(d->shell_owner, d->shell_trusted) != 0;
    }
    d->shell_state = GM_OWNER_NONE;
    d->shell_owner[0] = d->shell_trusted[0] = 0;
    return 0;
}

static int from_shell(const gm_dbus *d, const char *sender) {
    return d->shell_state == GM_OWNER_KNOWN && same(sender, d->shell_owner) && same(sender, d->shell_trusted);
}

/* An answer from the bus to one of our requests. */
static gm_dbus_kind bus_answer(gm_dbus *d, DBusMessage *m, gm_dbus_update *out) {
    uint32_t serial = gm_db.dbus_message_get_reply_serial(m);
    int failed = gm_db.dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_ERROR;
    if (serial == 0) return GM_DBUS_NOTHING;
    const char *text = first_string(m);
    char why[200];
    if (serial == d->shell_serial) {
        d->shell_serial = 0;
        set_shell_owner(d, failed ? NULL : text, 0);
    } else if (serial == d->request_serial) {
        d->request_serial = 0;
        const char *signature = gm_db.dbus_message_get_signature(m);
        if (failed) {
            snprintf(why, sizeof why, "cannot take the name %s on the session bus: %s", d->name, text ? text : "refused");
            gm_dbus_set_disconnected(d, why);
            return out->kind = GM_DBUS_DISCONNECTED;
        }
        dbus_uint32_t result = 0;
        DBusMessageIter it;
        if (same(signature, "u") && gm_db.dbus_message_iter_init(m, &it)) gm_db.dbus_message_iter_get_basic(&it, &result);
        if (result == DBUS_REQUEST_NAME_REPLY_IN_QUEUE) d->holder_serial = ask_bus(d, "GetNameOwner", d->name);
    } else if (serial == d->holder_serial) {
        d->holder_serial = 0;
        if (failed || !text) return GM_DBUS_NOTHING; /* freed meanwhile: NameAcquired follows */
        gm_dbus_update_free(&d->pending);
        d->pending.text = strdup(text);
        d->holder_pid_serial = ask_bus(d, "GetConnectionUnixProcessID", text);
        if (!d->holder_pid_serial) {
            *out = d->pending;
            memset(&d->pending, 0, sizeof d->pending);
            out->number = -1;
            return out->kind = GM_DBUS_NAME_QUEUED;
        }
    } else if (serial == d->holder_pid_serial) {
        d->holder_pid_serial = 0;
        dbus_uint32_t pid = 0;
        DBusMessageIter it;
        if (!failed && same(gm_db.dbus_message_get_signature(m), "u") && gm_db.dbus_message_iter_init(m, &it))
            gm_db.dbus_message_iter_get_basic(&it, &pid);
        *out = d->pending;
        memset(&d->pending, 0, sizeof d->pending);
        out->number = pid > 0 ? (int64_t)pid : -1;
        return out->kind = GM_DBUS_NAME_QUEUED;
    } else if (serial == d->match_serial && failed) {
        d->match_serial = 0;
        /* Without the watch a new shell would never be trusted: say why. */
        snprintf(why, sizeof why, "the session bus refused to watch %s: %s", d->shell, text ? text : "unknown error");
        gm_dbus_set_disconnected(d, why);
        return out->kind = GM_DBUS_DISCONNECTED;
    }
    return GM_DBUS_NOTHING;
}

/* A signal the bus daemon sent; anyone else's are ignored. */
static gm_dbus_kind bus_signal(gm_dbus *d, DBusMessage *m, gm_dbus_update *out) {
    const char *member = gm_db.dbus_message_get_member(m);
    if (!same(gm_db.dbus_message_get_interface(m), DBUS_INTERFACE_DBUS) || !member) return GM_DBUS_NOTHING;
    const char *signature = gm_db.dbus_message_get_signature(m);
    if (strcmp(member, "NameOwnerChanged") == 0 && same(signature, "sss")) {
        DBusMessageIter it;
        const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
        if (!gm_db.dbus_message_iter_init(m, &it)) return GM_DBUS_NOTHING;
        gm_db.dbus_message_iter_get_basic(&it, &name);
        gm_db.dbus_message_iter_next(&it);
        gm_db.dbus_message_iter_get_basic(&it, &old_owner);
        gm_db.dbus_message_iter_next(&it);
        gm_db.dbus_message_iter_get_basic(&it, &new_owner);
        if (!same(name, d->shell)) return GM_DBUS_NOTHING;
        int handover = old_owner && *old_owner && new_owner && *new_owner;
        if (set_shell_owner(d, new_owner, handover)) {
            out->text = strdup(new_owner);
            return out->kind = GM_DBUS_SHELL_TAKEN;
        }
        return GM_DBUS_NOTHING;
    }
    const char *name = same(signature, "s") ? first_string(m) : NULL;
    if (!same(name, d->name)) return GM_DBUS_NOTHING;
    if (strcmp(member, "NameAcquired") == 0) return out->kind = GM_DBUS_NAME_ACQUIRED;
    if (strcmp(member, "NameLost") == 0) return out->kind = GM_DBUS_NAME_LOST;
    return GM_DBUS_NOTHING;
}

static gm_dbus_kind bad_call(gm_dbus *d, DBusMessage *m, gm_dbus_update *out, const char *problem) {
    reply(d, m, DBUS_ERROR_INVALID_ARGS, problem);
    out->text = strdup(problem);
    return out->kind = GM_DBUS_BAD_CALL;
}

static gm_dbus_kind method_call(gm_dbus *d, DBusMessage *m, gm_dbus_update *out) {
    const char *member = gm_db.dbus_message_get_member(m);
    const char *interface = gm_db.dbus_message_get_interface(m);
    const char *sender = gm_db.dbus_message_get_sender(m);
    if (!member) return GM_DBUS_NOTHING;
    int ours = same(gm_db.dbus_message_get_path(m), d->path) && (!interface || strcmp(interface, d->interface) == 0);
    int focus = ours && strcmp(member, "FocusChanged") == 0;
    int windows = ours && strcmp(member, "WindowsChanged") == 0;
    if (focus || windows) {
        if (!from_shell(d, sender)) {
            char text[400];
            snprintf(text, sizeof text, "gesturemap takes %s only from the desktop's shell, the owner of %s; %s is not it",
                     member, d->shell, sender ? sender : "this caller");
            reply(d, m, DBUS_ERROR_ACCESS_DENIED, text);
            out->text = strdup(sender ? sender : "");
            out->number = d->shell_state == GM_OWNER_KNOWN;
            return out->kind = GM_DBUS_REFUSED;
        }
        if (focus) {
            char problem[300];
            const char *wrong = read_focus(m, &out->window, problem, sizeof problem);
            if (wrong) return bad_call(d, m, out, wrong);
            reply(d, m, NULL, NULL);
            return out->kind = GM_DBUS_FOCUS;
        }
        const char *signature = gm_db.dbus_message_get_signature(m);
        if (!same(signature, "s")) {
            char problem[120];
            snprintf(problem, sizeof problem, "WindowsChanged takes (s windows_json), not (%.40s)", signature ? signature : "");
            return bad_call(d, m, out, problem);
        }
        const char *json = first_string(m);
        out->text = strdup(json ? json : "");
        reply(d, m, NULL, NULL);
        return out->kind = GM_DBUS_WINDOWS;
    }
    if (same(interface, DBUS_INTERFACE_INTROSPECTABLE) && strcmp(member, "Introspect") == 0) {
        char xml[2048];
        snprintf(xml, sizeof xml, introspection, d->interface);
        reply(d, m, NULL, xml);
    } else if (same(interface, DBUS_INTERFACE_PEER) && strcmp(member, "Ping") == 0) {
        reply(d, m, NULL, NULL);
    } else {
        reply(d, m, DBUS_ERROR_UNKNOWN_METHOD, "gesturemap serves FocusChanged and WindowsChanged only");
    }
    return GM_DBUS_NOTHING;
}

static gm_dbus_kind dispatch(gm_dbus *d, DBusMessage *m, gm_dbus_update *out) {
    int type = gm_db.dbus_message_get_type(m);
    int from_bus = same(gm_db.dbus_message_get_sender(m), bus_name);
    switch (type) {
    case DBUS_MESSAGE_TYPE_METHOD_RETURN:
    case DBUS_MESSAGE_TYPE_ERROR: return from_bus ? bus_answer(d, m, out) : GM_DBUS_NOTHING;
    case DBUS_MESSAGE_TYPE_SIGNAL: return from_bus ? bus_signal(d, m, out) : GM_DBUS_NOTHING;
    case DBUS_MESSAGE_TYPE_METHOD_CALL: return method_call(d, m, out);
    default: return GM_DBUS_NOTHING;
    }
}

/* The authentication's answer: one line, "OK <guid>" or a refusal. */
static int read_auth_line(gm_dbus *d) {
    unsigned char *start = d->in + d->in_start;
    size_t have = d->in_end - d->in_start;
    unsigned char *end = memchr(start, '\n', have);
    if (!end) {
        if (have > GM_DBUS_MAX_AUTH_LINE) gm_dbus_set_disconnected(d, "the session bus answered the authentication with something that is not D-Bus");
        return 0;
    }
    size_t length = (size_t)(end - start);
    if (length > 0 && start[length - 1] == '\r') length--;
    if (length >= 3 && memcmp(start, "OK ", 3) == 0) {
        d->authenticated = 1;
    } else {
        char why[GM_DBUS_MAX_AUTH_LINE + 80];
        int shown = (int)(length > 100 ? 100 : length);
        for (int i = 0; i < shown; i++) if (start[i] < 0x20 || start[i] > 0x7e) start[i] = '?';
        snprintf(why, sizeof why, "the session bus refused the authentication (EXTERNAL): %.*s", shown, (const char *)start);
        gm_dbus_set_disconnected(d, why);
    }
    d->in_start += (size_t)(end - start) + 1;
    return 1;
}

gm_dbus_kind gm_dbus_next(gm_dbus *d, gm_dbus_update *out) {
    memset(out, 0, sizeof *out);
    for (;;) {
        if (d->disconnected) {
            out->text = strdup(d->reason);
            return out->kind = GM_DBUS_DISCONNECTED;
        }
        size_t have = d->in_end - d->in_start;
        if (!d->authenticated) {
            if (!read_auth_line(d)) return GM_DBUS_NOTHING;
            continue;
        }
        if (d->skip > 0) {
            size_t n = d->skip < have ? (size_t)d->skip : have;
            d->in_start += n;
            d->skip -= n;
            if (d->skip > 0 || n == have) {
                if (d->in_start == d->in_end) d->in_start = d->in_end = 0;
                return GM_DBUS_NOTHING;
            }
            continue;
        }
        if (have < DBUS_MINIMUM_HEADER_SIZE) return GM_DBUS_NOTHING;
        const char *start = (const char *)d->in + d->in_start;
        int needed = gm_db.dbus_message_demarshal_bytes_needed(start, (int)(have > INT32_MAX ? INT32_MAX : have));
        if (needed < 0) {
            gm_dbus_set_disconnected(d, "the session bus sent bytes that are not a D-Bus message");
            continue;
        }
        if ((size_t)needed > GM_DBUS_MAX_MESSAGE) {
            d->skip = (uint64_t)needed;
            out->number = needed;
            return out->kind = GM_DBUS_TOO_BIG;
        }
        if (have < (size_t)needed) {
            /* The rest is on its way: make room for it at the buffer's start. */
            if (d->in_start > 0) gm_dbus_feed(d, "", 0);
            return GM_DBUS_NOTHING;
        }
        DBusError e;
        gm_db.dbus_error_init(&e);
        DBusMessage *m = gm_db.dbus_message_demarshal(start, needed, &e);
        gm_db.dbus_error_free(&e);
        d->in_start += (size_t)needed;
        if (d->in_start == d->in_end) d->in_start = d->in_end = 0;
        if (!m) continue; /* the daemon checks every message; nothing to read in one it let by */
        gm_dbus_kind kind = dispatch(d, m, out);
        gm_db.dbus_message_unref(m);
        if (kind != GM_DBUS_NOTHING) return kind;
    }
}

void gm_dbus_update_free(gm_dbus_update *u) {
    free(u->text);
    u->text = NULL;
}

void gm_dbus_close(gm_dbus *d) {
    if (!d) return;
    if (d->fd >= 0) close(d->fd);
    gm_dbus_update_free(&d->pending);
    free(d->in), free(d->out);
    free(d->name), free(d->path), free(d->interface), free(d->shell);
    free(d);
}
