#include "CContext.h"
#include "loader.h"

#include <stdlib.h>
#include <xcb/xcb.h>

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
    GM_PTR(xcb_intern_atom);
    GM_PTR(xcb_intern_atom_reply);
    GM_PTR(xcb_get_property);
    GM_PTR(xcb_get_property_reply);
    GM_PTR(xcb_get_property_value);
    GM_PTR(xcb_get_property_value_length);
    GM_PTR(xcb_change_window_attributes);
    GM_PTR(xcb_get_input_focus);
    GM_PTR(xcb_get_input_focus_reply);
    GM_PTR(xcb_query_tree);
    GM_PTR(xcb_query_tree_reply);
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
          GM_LOAD(lib, xcb, xcb_intern_atom, error, size) && GM_LOAD(lib, xcb, xcb_intern_atom_reply, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property, error, size) && GM_LOAD(lib, xcb, xcb_get_property_reply, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property_value, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_property_value_length, error, size) &&
          GM_LOAD(lib, xcb, xcb_change_window_attributes, error, size) &&
          GM_LOAD(lib, xcb, xcb_get_input_focus, error, size) && GM_LOAD(lib, xcb, xcb_get_input_focus_reply, error, size) &&
          GM_LOAD(lib, xcb, xcb_query_tree, error, size) && GM_LOAD(lib, xcb, xcb_query_tree_reply, error, size) &&
          GM_LOAD(lib, xcb, xcb_query_tree_children, error, size) &&
          GM_LOAD(lib, xcb, xcb_query_tree_children_length, error, size)))
        return 0;
    xcb_loaded = 1;
    return 1;
}

enum { A_ACTIVE, A_CLIENT_LIST, A_NAME, A_PID, A_UTF8, A_COUNT };
static const char *const atom_names[A_COUNT] = {"_NET_ACTIVE_WINDOW", "_NET_CLIENT_LIST", "_NET_WM_NAME", "_NET_WM_PID",
                                               "UTF8_STRING"};

struct gm_x11 {
    xcb_connection_t *c;
    xcb_window_t root;
    xcb_atom_t atoms[A_COUNT];
    int uses_active_window;
    /* The window whose title changes we listen to. */
    xcb_window_t watched;
};

static void select_events(gm_x11 *x, xcb_window_t window, uint32_t mask) {
    xcb.xcb_change_window_attributes(x->c, window, XCB_CW_EVENT_MASK, &mask);
}

/* The value of a property of 32-bit items; returns how many were read. */
static int read_cardinals(gm_x11 *x, xcb_window_t window, xcb_atom_t property, xcb_atom_t type, uint32_t *out, int max,
                          int *exists) {
    xcb_get_property_reply_t *reply =
        xcb.xcb_get_property_reply(x->c, xcb.xcb_get_property(x->c, 0, window, property, type, 0, (uint32_t)max), NULL);
    if (exists) *exists = reply && reply->type != XCB_NONE;
    if (!reply) return 0;
    int count = 0;
    if (reply->format == 32) {
        count = xcb.xcb_get_property_value_length(reply) / 4;
        if (count > max) count = max;
        memcpy(out, xcb.xcb_get_property_value(reply), (size_t)count * 4);
    }
    free(reply);
    return count;
}

/* A text property into `out`; 1 when it was there. */
static int read_text(gm_x11 *x, xcb_window_t window, xcb_atom_t property, xcb_atom_t type, char *out, size_t size) {
    xcb_get_property_reply_t *reply =
        xcb.xcb_get_property_reply(x->c, xcb.xcb_get_property(x->c, 0, window, property, type, 0, 1024), NULL);
    if (!reply) return 0;
    int found = 0;
    if (reply->type != XCB_NONE && reply->format == 8) {
        int length = xcb.xcb_get_property_value_length(reply);
        const char *value = xcb.xcb_get_property_value(reply);
        if (property == XCB_ATOM_WM_CLASS) {
            /* "instance\0Class\0": the class is the second string. */
            int first = (int)strnlen(value, (size_t)length);
            if (first + 1 < length) {
                value += first + 1;
                length -= first + 1;
            }
        }
        size_t n = strnlen(value, (size_t)length);
        if (n >= size) n = size - 1;
        memcpy(out, value, n);
        out[n] = 0;
        found = 1;
    }
    free(reply);
    return found;
}

static int has_class(gm_x11 *x, xcb_window_t window) {
    char buffer[8];
    return read_text(x, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, buffer, sizeof buffer);
}

/* The input focus can be a frame, or a child of the window a program made:
 * the nearest window up the tree with a WM_CLASS, else the first one below. */
static xcb_window_t client_window(gm_x11 *x, xcb_window_t window, int depth) {
    if (window == XCB_NONE || window == x->root || depth > 8) return XCB_NONE;
    if (has_class(x, window)) return window;
    xcb_query_tree_reply_t *tree = xcb.xcb_query_tree_reply(x->c, xcb.xcb_query_tree(x->c, window), NULL);
    if (!tree) return XCB_NONE;
    xcb_window_t found = XCB_NONE;
    xcb_window_t *children = xcb.xcb_query_tree_children(tree);
    int count = xcb.xcb_query_tree_children_length(tree);
    for (int i = 0; i < count && found == XCB_NONE; i++)
        if (has_class(x, children[i])) found = children[i];
    xcb_window_t parent = tree->parent;
    free(tree);
    if (found != XCB_NONE) return found;
    return depth == 0 ? client_window(x, parent, depth + 1) : XCB_NONE;
}

static void describe(gm_x11 *x, xcb_window_t window, gm_window *out) {
    memset(out, 0, sizeof *out);
    out->handle = window;
    out->pid = -1;
    read_text(x, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, out->id, sizeof out->id);
    if (!read_text(x, window, x->atoms[A_NAME], x->atoms[A_UTF8], out->title, sizeof out->title))
        read_text(x, window, XCB_ATOM_WM_NAME, XCB_ATOM_ANY, out->title, sizeof out->title);
    uint32_t pid;
    if (read_cardinals(x, window, x->atoms[A_PID], XCB_ATOM_CARDINAL, &pid, 1, NULL) == 1) out->pid = pid;
}

gm_x11 *gm_x11_open(const char *display, char *error, size_t size) {
    if (!load_xcb(error, size)) return NULL;
    int screen = 0;
    xcb_connection_t *c = xcb.xcb_connect(display, &screen);
    if (!c || xcb.xcb_connection_has_error(c)) {
        const char *name = display ? display : getenv("DISPLAY");
        gm_context_error(error, size, "cannot connect to the X server %s", name ? name : "(DISPLAY is not set)");
        if (c) xcb.xcb_disconnect(c);
        return NULL;
    }
    xcb_screen_iterator_t it = xcb.xcb_setup_roots_iterator(xcb.xcb_get_setup(c));
    for (int i = 0; i < screen && it.rem > 0; i++) {
        it.rem--;
        it.data++;
    }
    gm_x11 *x = calloc(1, sizeof *x);
    if (!x) {
        xcb.xcb_disconnect(c);
        gm_context_error(error, size, "out of memory");
        return NULL;
    }
    x->c = c;
    x->root = it.data->root;
    xcb_intern_atom_cookie_t cookies[A_COUNT];
    for (int i = 0; i < A_COUNT; i++) cookies[i] = xcb.xcb_intern_atom(c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < A_COUNT; i++) {
        xcb_intern_atom_reply_t *reply = xcb.xcb_intern_atom_reply(c, cookies[i], NULL);
        x->atoms[i] = reply ? reply->atom : XCB_NONE;
        free(reply);
    }
    /* PropertyNotify on the root says when _NET_ACTIVE_WINDOW changes (and when
     * a window manager starts keeping it); the focus and substructure events
     * serve when none does. */
    select_events(x, x->root,
                  XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_FOCUS_CHANGE | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY);
    xcb_query_tree_reply_t *tree = xcb.xcb_query_tree_reply(c, xcb.xcb_query_tree(c, x->root), NULL);
    if (tree) {
        xcb_window_t *children = xcb.xcb_query_tree_children(tree);
        for (int i = 0; i < xcb.xcb_query_tree_children_length(tree); i++)
            select_events(x, children[i], XCB_EVENT_MASK_FOCUS_CHANGE);
        free(tree);
    }
    xcb.xcb_flush(c);
    return x;
}

int gm_x11_fd(const gm_x11 *x) { return xcb.xcb_get_file_descriptor(x->c); }

int gm_x11_uses_active_window(const gm_x11 *x) { return x->uses_active_window; }

int gm_x11_drain(gm_x11 *x) {
    int changed = 0;
    xcb_generic_event_t *event;
    while ((event = xcb.xcb_poll_for_event(x->c))) {
        switch (event->response_type & 0x7f) {
        case XCB_PROPERTY_NOTIFY: {
            xcb_property_notify_event_t *e = (xcb_property_notify_event_t *)event;
            if ((e->window == x->root && e->atom == x->atoms[A_ACTIVE]) ||
                (e->window == x->watched &&
                 (e->atom == x->atoms[A_NAME] || e->atom == XCB_ATOM_WM_NAME || e->atom == XCB_ATOM_WM_CLASS)))
                changed = 1;
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
            if (!x->uses_active_window) changed = 1;
            break;
        default:
            break;
        }
        free(event);
    }
    xcb.xcb_flush(x->c);
    return xcb.xcb_connection_has_error(x->c) ? -1 : changed;
}

int gm_x11_focused(gm_x11 *x, gm_window *out) {
    if (xcb.xcb_connection_has_error(x->c)) return -1;
    uint32_t active = XCB_NONE;
    int exists = 0;
    read_cardinals(x, x->root, x->atoms[A_ACTIVE], XCB_ATOM_WINDOW, &active, 1, &exists);
    x->uses_active_window = exists;
    xcb_window_t window = XCB_NONE;
    if (exists) {
        window = active;
    } else {
        xcb_get_input_focus_reply_t *focus = xcb.xcb_get_input_focus_reply(x->c, xcb.xcb_get_input_focus(x->c), NULL);
        if (focus) {
            window = client_window(x, focus->focus, 0);
            free(focus);
        }
    }
    if (window != x->watched) {
        if (x->watched != XCB_NONE) select_events(x, x->watched, XCB_EVENT_MASK_FOCUS_CHANGE);
        if (window != XCB_NONE) select_events(x, window, XCB_EVENT_MASK_FOCUS_CHANGE | XCB_EVENT_MASK_PROPERTY_CHANGE);
        x->watched = window;
        xcb.xcb_flush(x->c);
    }
    if (xcb.xcb_connection_has_error(x->c)) return -1;
    if (window == XCB_NONE) return 0;
    describe(x, window, out);
    out->focused = 1;
    return 1;
}

int gm_x11_windows(gm_x11 *x, gm_window *out, int max) {
    uint32_t ids[1024];
    int exists = 0;
    int count = read_cardinals(x, x->root, x->atoms[A_CLIENT_LIST], XCB_ATOM_WINDOW, ids, 1024, &exists);
    if (!exists) {
        count = 0;
        xcb_query_tree_reply_t *tree = xcb.xcb_query_tree_reply(x->c, xcb.xcb_query_tree(x->c, x->root), NULL);
        if (tree) {
            xcb_window_t *children = xcb.xcb_query_tree_children(tree);
            int n = xcb.xcb_query_tree_children_length(tree);
            for (int i = 0; i < n && count < 1024; i++) {
                xcb_window_t client = client_window(x, children[i], 1);
                if (client != XCB_NONE) ids[count++] = client;
            }
            free(tree);
        }
    }
    gm_window focused;
    int has_focus = gm_x11_focused(x, &focused) == 1;
    for (int i = 0; i < count && i < max; i++) {
        describe(x, ids[i], &out[i]);
        out[i].focused = has_focus && focused.handle == ids[i];
    }
    return count;
}

void gm_x11_close(gm_x11 *x) {
    if (!x) return;
    xcb.xcb_disconnect(x->c);
    free(x);
}
