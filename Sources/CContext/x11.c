#include "CContext.h"
#include "loader.h"

#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

/* libxcb's entry points, loaded at run time. */
static struct {
    GM_PTR(xcb_connect);
    GM_PTR(xcb_connection_has_error);
    GM_PTR(xcb_disconnect);
    GM_PTR(xcb_get_file_descriptor);
    GM_PTR(xcb_get_setup);
    GM_PTR(xcb_setup_roots_iterator);
    GM_PTR(xcb_flush);
    GM_PTR(xcb_poll_for_event);
    GM_PTR(xcb_poll_for_reply);
    GM_PTR(xcb_intern_atom);
    GM_PTR(xcb_get_property);
    GM_PTR(xcb_get_property_value);
    GM_PTR(xcb_get_property_value_length);
    GM_PTR(xcb_change_window_attributes);
    GM_PTR(xcb_get_input_focus);
    GM_PTR(xcb_query_tree);
    GM_PTR(xcb_query_tree_children);
    GM_PTR(xcb_query_tree_children_length);
} xcb;
static int xcb_loaded;

static int load_xcb(char *error, size_t size) {
    if (xcb_loaded) return 1;
    static const char *const names[] = {"libxcb.so.1", "libxcb.so", NULL};
    void *lib = gm_context_dlopen(names, "libxcb (X11)", "libxcb1", error, size);
    if (!lib) return 0;
    if (!(GM_LOAD(lib, xcb, xcb_connect, error, size) && GM_LOAD(lib, xcb, xcb_connection_has_error, error, size) &&
          GM_LOAD(lib, xcb, xcb_disconnect, error, size) && GM_LOAD(lib, xcb, xcb_get_file_descriptor, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_setup, error, size) && GM_LOAD(lib, xcb, xcb_setup_roots_iterator, error, size) &&
          GM_LOAD(lib, xcb, xcb_flush, error, size) && GM_LOAD(lib, xcb, xcb_poll_for_event, error, size) &&
          GM_LOAD(lib, xcb, xcb_poll_for_reply, error, size) && GM_LOAD(lib, xcb, xcb_intern_atom, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property_value, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property_value_length, error, size) &&
          GM_LOAD(lib, xcb, xcb_change_window_attributes, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_input_focus, error, size) && GM_LOAD(lib, xcb, xcb_query_tree, error, size) &&
          GM_LOAD(lib, xcb, xcb_query_tree_children, error, size) &&
          GM_LOAD(lib, xcb, xcb_query_tree_children_length, error, size)))
        return 0;
    xcb_loaded = 1;
    return 1;
}

enum { A_ACTIVE, A_CLIENT_LIST, A_NAME, A_PID, A_COUNT };
static const char *const atom_names[A_COUNT] = {"_NET_ACTIVE_WINDOW", "_NET_CLIENT_LIST", "_NET_WM_NAME", "_NET_WM_PID"};

struct gm_x11 {
    xcb_connection_t *c;
    xcb_window_t root;
    xcb_atom_t atoms[A_COUNT];
    /* The window whose title changes we listen to. */
    xcb_window_t watched;
};

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The reply to `request`, waiting at most until `deadline` (CLOCK_MONOTONIC
 * seconds): only for opening and for listing windows (`gesturemap apps`),
 * never for the engine's loop, which asks through gm_x11_ask_*. NULL when the
 * server refused, broke the connection or did not answer in time (`late`). */
static void *reply_by(gm_x11 *x, unsigned request, double deadline, int *late) {
    xcb.xcb_flush(x->c);
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *refusal = NULL;
        if (xcb.xcb_poll_for_reply(x->c, request, &reply, &refusal)) {
            free(refusal);
            return reply;
        }
        if (xcb.xcb_connection_has_error(x->c)) return NULL;
        double left = deadline - now_seconds();
        if (left <= 0) {
            if (late) *late = 1;
            return NULL;
        }
        struct pollfd p = {.fd = xcb.xcb_get_file_descriptor(x->c), .events = POLLIN};
        poll(&p, 1, (int)(left * 1000) + 1);
    }
}

static void select_events(gm_x11 *x, xcb_window_t window, uint32_t mask) {
    xcb.xcb_change_window_attributes(x->c, window, XCB_CW_EVENT_MASK, &mask);
}

/* Which property and type each GM_X11_* names. */
static void property_of(const gm_x11 *x, int property, xcb_atom_t *atom, xcb_atom_t *type) {
    switch (property) {
    case GM_X11_ACTIVE_WINDOW: *atom = x->atoms[A_ACTIVE], *type = XCB_ATOM_WINDOW; break;
    case GM_X11_CLIENT_LIST: *atom = x->atoms[A_CLIENT_LIST], *type = XCB_ATOM_WINDOW; break;
    case GM_X11_CLASS: *atom = XCB_ATOM_WM_CLASS, *type = XCB_ATOM_STRING; break;
    /* Any type: some programs (xdotool among them) set _NET_WM_NAME as STRING,
     * and a type that does not match would come back as no text at all. */
    case GM_X11_NET_NAME: *atom = x->atoms[A_NAME], *type = XCB_ATOM_ANY; break;
    case GM_X11_NAME: *atom = XCB_ATOM_WM_NAME, *type = XCB_ATOM_ANY; break;
    default: *atom = x->atoms[A_PID], *type = XCB_ATOM_CARDINAL; break;
    }
}

unsigned gm_x11_ask_property(gm_x11 *x, uint32_t window, int property) {
    xcb_atom_t atom, type;
    property_of(x, property, &atom, &type);
    /* 1024 four-byte units: titles and class names past 4 KiB are cut. */
    return xcb.xcb_get_property(x->c, 0, window ? window : x->root, atom, type, 0, 1024).sequence;
}

unsigned gm_x11_ask_input_focus(gm_x11 *x) { return xcb.xcb_get_input_focus(x->c).sequence; }

unsigned gm_x11_ask_tree(gm_x11 *x, uint32_t window) { return xcb.xcb_query_tree(x->c, window ? window : x->root).sequence; }

int gm_x11_send(gm_x11 *x) { return xcb.xcb_flush(x->c) > 0 ? 0 : -1; }

/* 1 with the reply in `*reply`, 2 refused (the window has gone), 0 not yet, -1 the connection is gone. */
static int take_reply(gm_x11 *x, unsigned request, void **reply) {
    xcb_generic_error_t *refusal = NULL;
    *reply = NULL;
    if (!xcb.xcb_poll_for_reply(x->c, request, reply, &refusal)) return xcb.xcb_connection_has_error(x->c) ? -1 : 0;
    if (refusal) {
        free(refusal);
        free(*reply);
        *reply = NULL;
        return 2;
    }
    return *reply ? 1 : -1;
}

static void copy_property(const xcb_get_property_reply_t *reply, gm_x11_property_value *out) {
    memset(out, 0, sizeof *out);
    out->type = reply->type;
    out->format = reply->format;
    int length = xcb.xcb_get_property_value_length((xcb_get_property_reply_t *)reply);
    if (length < 0) length = 0;
    if ((size_t)length > sizeof out->value) length = (int)sizeof out->value;
    memcpy(out->value, xcb.xcb_get_property_value((xcb_get_property_reply_t *)reply), (size_t)length);
    out->length = (uint32_t)length;
}

int gm_x11_property_answer(gm_x11 *x, unsigned request, gm_x11_property_value *out) {
    void *reply;
    int status = take_reply(x, request, &reply);
    if (status == 1) copy_property(reply, out);
    free(reply);
    return status;
}

int gm_x11_focus_answer(gm_x11 *x, unsigned request, uint32_t *window) {
    void *reply;
    int status = take_reply(x, request, &reply);
    if (status == 1) *window = ((xcb_get_input_focus_reply_t *)reply)->focus;
    free(reply);
    return status;
}

static void copy_tree(xcb_query_tree_reply_t *reply, gm_x11_tree *out) {
    out->parent = reply->parent;
    int count = xcb.xcb_query_tree_children_length(reply);
    if (count < 0) count = 0;
    out->total = (uint32_t)count;
    if ((size_t)count > sizeof out->children / sizeof out->children[0])
        count = (int)(sizeof out->children / sizeof out->children[0]);
    memcpy(out->children, xcb.xcb_query_tree_children(reply), (size_t)count * sizeof(uint32_t));
    out->count = (uint32_t)count;
}

int gm_x11_tree_answer(gm_x11 *x, unsigned request, gm_x11_tree *out) {
    void *reply;
    memset(out, 0, sizeof *out);
    int status = take_reply(x, request, &reply);
    if (status == 1) copy_tree(reply, out);
    free(reply);
    return status;
}

uint32_t gm_x11_root(const gm_x11 *x) { return x->root; }

void gm_x11_watch(gm_x11 *x, uint32_t window) {
    if (window == x->watched) return;
    if (x->watched != XCB_NONE) select_events(x, x->watched, XCB_EVENT_MASK_FOCUS_CHANGE);
    if (window != XCB_NONE) select_events(x, window, XCB_EVENT_MASK_FOCUS_CHANGE | XCB_EVENT_MASK_PROPERTY_CHANGE);
    x->watched = window;
}

gm_x11 *gm_x11_open(const char *display, char *error, size_t size) {
    if (!load_xcb(error, size)) return NULL;
    int screen = 0;
    /* The connection's setup is the one exchange xcb cannot make without waiting. */
    xcb_connection_t *c = xcb.xcb_connect(display, &screen);
    const char *name = display ? display : getenv("DISPLAY");
    if (!c || xcb.xcb_connection_has_error(c)) {
        gm_context_error(error, size, "cannot connect to the X server %s", name ? name : "(DISPLAY is not set)");
        if (c) xcb.xcb_disconnect(c);
        return NULL;
    }
    xcb_screen_iterator_t it = xcb.xcb_setup_roots_iterator(xcb.xcb_get_setup(c));
    for (int i = 0; i < screen && it.rem > 0; i++) {
        it.rem--;
        it.data++;
    }
    if (it.rem <= 0) {
        xcb.xcb_disconnect(c);
        gm_context_error(error, size, "the X server %s has no screen %d", name ? name : "", screen);
        return NULL;
    }
    gm_x11 *x = calloc(1, sizeof *x);
    if (!x) {
        xcb.xcb_disconnect(c);
        gm_context_error(error, size, "out of memory");
        return NULL;
    }
    x->c = c;
    x->root = it.data->root;
    double deadline = now_seconds() + GM_X11_ANSWER_SECONDS;
    int late = 0;
    unsigned cookies[A_COUNT];
    for (int i = 0; i < A_COUNT; i++)
        cookies[i] = xcb.xcb_intern_atom(c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]).sequence;
    unsigned tree_request = xcb.xcb_query_tree(c, x->root).sequence;
    xcb.xcb_flush(c);
    for (int i = 0; i < A_COUNT; i++) {
        xcb_intern_atom_reply_t *reply = reply_by(x, cookies[i], deadline, &late);
        x->atoms[i] = reply ? reply->atom : XCB_NONE;
        free(reply);
    }
    /* PropertyNotify on the root says when _NET_ACTIVE_WINDOW changes (and when
     * a window manager starts keeping it); the focus and substructure events
     * serve when none does. */
    select_events(x, x->root,
                  XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_FOCUS_CHANGE | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY);
    xcb_query_tree_reply_t *tree = reply_by(x, tree_request, deadline, &late);
    if (tree) {
        xcb_window_t *children = xcb.xcb_query_tree_children(tree);
        for (int i = 0; i < xcb.xcb_query_tree_children_length(tree); i++)
            select_events(x, children[i], XCB_EVENT_MASK_FOCUS_CHANGE);
        free(tree);
    }
    xcb.xcb_flush(c);
    if (late || xcb.xcb_connection_has_error(c)) {
        gm_context_error(error, size,
                         late ? "the X server %s did not answer within %d s (stopped or busy?)"
                              : "the X server %s closed the connection",
                         name ? name : "", (int)GM_X11_ANSWER_SECONDS);
        gm_x11_close(x);
        return NULL;
    }
    return x;
}

int gm_x11_fd(const gm_x11 *x) { return xcb.xcb_get_file_descriptor(x->c); }

int gm_x11_drain(gm_x11 *x) {
    int news = 0;
    xcb_generic_event_t *event;
    while ((event = xcb.xcb_poll_for_event(x->c))) {
        switch (event->response_type & 0x7f) {
        case XCB_PROPERTY_NOTIFY: {
            xcb_property_notify_event_t *e = (xcb_property_notify_event_t *)event;
            if (e->window == x->root && e->atom == x->atoms[A_ACTIVE]) news |= GM_X11_ACTIVE_CHANGED;
            if (e->window == x->watched &&
                (e->atom == x->atoms[A_NAME] || e->atom == XCB_ATOM_WM_NAME || e->atom == XCB_ATOM_WM_CLASS))
                news |= GM_X11_TITLE_CHANGED;
            break;
        }
        case XCB_CREATE_NOTIFY: {
            xcb_create_notify_event_t *e = (xcb_create_notify_event_t *)event;
            if (e->parent == x->root) select_events(x, e->window, XCB_EVENT_MASK_FOCUS_CHANGE);
            break;
        }
        case XCB_FOCUS_IN:
        case XCB_FOCUS_OUT:
        case XCB_DESTROY_NOTIFY:
        case XCB_UNMAP_NOTIFY:
            news |= GM_X11_FOCUS_MOVED;
            break;
        default:
            break;
        }
        free(event);
    }
    xcb.xcb_flush(x->c);
    return xcb.xcb_connection_has_error(x->c) ? -1 : news;
}

/* ---- the list of windows, for `gesturemap apps`: waits, but never past its deadline ---- */

static int read_property_by(gm_x11 *x, uint32_t window, int property, gm_x11_property_value *out, double deadline,
                            int *late) {
    xcb_get_property_reply_t *reply = reply_by(x, gm_x11_ask_property(x, window, property), deadline, late);
    if (!reply) return 0;
    copy_property(reply, out);
    free(reply);
    return out->type != XCB_NONE;
}

static void text_of(const gm_x11_property_value *value, int is_class, char *out, size_t size) {
    const char *text = (const char *)value->value;
    size_t length = value->format == 8 ? value->length : 0;
    if (is_class) {
        /* "instance\0Class\0": the class is the second string. */
        size_t first = strnlen(text, length);
        if (first + 1 < length) text += first + 1, length -= first + 1;
    }
    size_t n = strnlen(text, length);
    if (n >= size) n = size - 1;
    memcpy(out, text, n);
    out[n] = 0;
}

static void describe_by(gm_x11 *x, xcb_window_t window, gm_window *out, double deadline, int *late) {
    gm_x11_property_value value;
    memset(out, 0, sizeof *out);
    out->handle = window;
    out->pid = -1;
    if (read_property_by(x, window, GM_X11_CLASS, &value, deadline, late)) text_of(&value, 1, out->id, sizeof out->id);
    if (read_property_by(x, window, GM_X11_NET_NAME, &value, deadline, late) ||
        read_property_by(x, window, GM_X11_NAME, &value, deadline, late))
        text_of(&value, 0, out->title, sizeof out->title);
    if (read_property_by(x, window, GM_X11_PID, &value, deadline, late) && value.format == 32 && value.length >= 4) {
        uint32_t pid;
        memcpy(&pid, value.value, 4);
        out->pid = pid;
    }
}

/* The window itself when it has a WM_CLASS, else its first child that has one. */
static xcb_window_t client_by(gm_x11 *x, xcb_window_t window, double deadline, int *late) {
    gm_x11_property_value value;
    if (read_property_by(x, window, GM_X11_CLASS, &value, deadline, late)) return window;
    xcb_query_tree_reply_t *tree = reply_by(x, gm_x11_ask_tree(x, window), deadline, late);
    if (!tree) return XCB_NONE;
    xcb_window_t found = XCB_NONE;
    xcb_window_t *children = xcb.xcb_query_tree_children(tree);
    int count = xcb.xcb_query_tree_children_length(tree);
    for (int i = 0; i < count && found == XCB_NONE && !*late; i++)
        if (read_property_by(x, children[i], GM_X11_CLASS, &value, deadline, late)) found = children[i];
    free(tree);
    return found;
}

int gm_x11_windows(gm_x11 *x, gm_window *out, int max) {
    double deadline = now_seconds() + GM_X11_ANSWER_SECONDS;
    int late = 0;
    uint32_t ids[1024];
    gm_x11_property_value list;
    int count = 0;
    if (read_property_by(x, 0, GM_X11_CLIENT_LIST, &list, deadline, &late)) {
        count = list.format == 32 ? (int)(list.length / 4) : 0;
        memcpy(ids, list.value, (size_t)count * 4);
    } else if (!late) {
        xcb_query_tree_reply_t *tree = reply_by(x, gm_x11_ask_tree(x, 0), deadline, &late);
        if (tree) {
            xcb_window_t *children = xcb.xcb_query_tree_children(tree);
            int n = xcb.xcb_query_tree_children_length(tree);
            for (int i = 0; i < n && count < 1024 && !late; i++) {
                xcb_window_t client = client_by(x, children[i], deadline, &late);
                if (client != XCB_NONE) ids[count++] = client;
            }
            free(tree);
        }
    }
    for (int i = 0; i < count && i < max && !late; i++) describe_by(x, ids[i], &out[i], deadline, &late);
    if (late) return -2;
    return xcb.xcb_connection_has_error(x->c) ? -1 : count;
}

void gm_x11_close(gm_x11 *x) {
    if (!x) return;
    xcb.xcb_disconnect(x->c);
    free(x);
}
