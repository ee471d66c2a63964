// A Wayland client for the kernel suite's desktop: one fullscreen window, and
// one line on stdout for every pointer, touch and pointer-gesture event the
// compositor sends it, with the compositor's own timestamp (ms). wev, which the
// suite used before, binds no zwp_pointer_gestures_v1, so it could not show
// whether a swipe reached the desktop as a swipe.
//
// Lines (SwayDesktop.swift's ClientReading reads them):
//   ready WIDTH HEIGHT                       the window is mapped at this size
//   gestures VERSION                         zwp_pointer_gestures_v1 bound (0: not offered)
//   seat [pointer] [touch]                   the seat's capabilities, as they change
//   pointer enter|leave
//   pointer motion TIME X Y                  surface coordinates
//   pointer button TIME BUTTON pressed|released
//   pointer axis TIME vertical|horizontal VALUE
//   pointer axis-stop TIME vertical|horizontal
//   pointer frame
//   touch down TIME ID X Y | touch up TIME ID | touch motion TIME ID X Y
//   touch frame | touch cancel
//   swipe begin TIME FINGERS | swipe update TIME DX DY | swipe end TIME cancelled|done
//   pinch begin TIME FINGERS | pinch update TIME DX DY SCALE ROTATION | pinch end TIME cancelled|done
//   hold begin TIME FINGERS | hold end TIME cancelled|done
//
// `gesture-client --app-id ID` gives the window that app_id and title, so a
// desktop's per-application tests can tell its windows apart by what the
// desktop reports (GnomeShellSession.swift, KWinSession.swift).
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct client {
    struct wl_display *display;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct wl_seat *seat;
    struct xdg_wm_base *wm_base;
    struct zwp_pointer_gestures_v1 *gestures;
    uint32_t gestures_version;
    struct zwp_pointer_gesture_swipe_v1 *swipe;
    struct zwp_pointer_gesture_pinch_v1 *pinch;
    struct zwp_pointer_gesture_hold_v1 *hold;
    struct wl_surface *surface;
    struct xdg_surface *xdg_surface;
    struct xdg_toplevel *toplevel;
    struct wl_buffer *buffer;
    int32_t width, height;
    int32_t pending_width, pending_height;
    struct wl_pointer *pointer;
    struct wl_touch *touch;
    int closed;
};

static double fixed(wl_fixed_t value) { return wl_fixed_to_double(value); }

static const char *axis_name(uint32_t axis) {
    return axis == WL_POINTER_AXIS_VERTICAL_SCROLL ? "vertical" : "horizontal";
}

// --- the window: an XRGB buffer of the configured size, so it takes pointer focus

static void buffer_release(void *data, struct wl_buffer *buffer) { (void)data; (void)buffer; }
static const struct wl_buffer_listener buffer_listener = { .release = buffer_release };

static struct wl_buffer *make_buffer(struct client *c, int32_t width, int32_t height) {
    int32_t stride = width * 4;
    size_t size = (size_t)stride * (size_t)height;
    int fd = memfd_create("gesture-client", MFD_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "gesture-client: memfd_create: %s\n", strerror(errno));
        return NULL;
    }
    if (ftruncate(fd, (off_t)size) < 0) {
        fprintf(stderr, "gesture-client: cannot size a %dx%d buffer: %s\n", width, height, strerror(errno));
        close(fd);
        return NULL;
    }
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) {
        fprintf(stderr, "gesture-client: mmap: %s\n", strerror(errno));
        close(fd);
        return NULL;
    }
    memset(pixels, 0x40, size);
    munmap(pixels, size);
    struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_buffer_add_listener(buffer, &buffer_listener, c);
    return buffer;
}

static void xdg_surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
    struct client *c = data;
    xdg_surface_ack_configure(surface, serial);
    int32_t width = c->pending_width > 0 ? c->pending_width : 640;
    int32_t height = c->pending_height > 0 ? c->pending_height : 480;
    if (c->buffer == NULL || width != c->width || height != c->height) {
        struct wl_buffer *buffer = make_buffer(c, width, height);
        if (buffer == NULL) {
            c->closed = 1;
            return;
        }
        if (c->buffer) wl_buffer_destroy(c->buffer);
        c->buffer = buffer;
        c->width = width;
        c->height = height;
        wl_surface_attach(c->surface, buffer, 0, 0);
        wl_surface_damage(c->surface, 0, 0, width, height);
        wl_surface_commit(c->surface);
        printf("ready %d %d\n", width, height);
    } else {
        wl_surface_commit(c->surface);
    }
}
static const struct xdg_surface_listener xdg_surface_listener = { .configure = xdg_surface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height, struct wl_array *states) {
    struct client *c = data;
    (void)toplevel; (void)states;
    c->pending_width = width;
    c->pending_height = height;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    struct client *c = data;
    (void)toplevel;
    c->closed = 1;
}
static const struct xdg_toplevel_listener toplevel_listener = { .configure = toplevel_configure, .close = toplevel_close };

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) { (void)data; xdg_wm_base_pong(base, serial); }
static const struct xdg_wm_base_listener wm_base_listener = { .ping = wm_base_ping };

// --- wl_pointer

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)p; (void)serial; (void)s; (void)x; (void)y;
    printf("pointer enter\n");
}
static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {
    (void)data; (void)p; (void)serial; (void)s;
    printf("pointer leave\n");
}
static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)p;
    printf("pointer motion %u %.3f %.3f\n", time, fixed(x), fixed(y));
}
static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    (void)data; (void)p; (void)serial;
    printf("pointer button %u %u %s\n", time, button, state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
}
static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)data; (void)p;
    printf("pointer axis %u %s %.3f\n", time, axis_name(axis), fixed(value));
}
static void pointer_frame(void *data, struct wl_pointer *p) { (void)data; (void)p; printf("pointer frame\n"); }
static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source) { (void)data; (void)p; (void)source; }
static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis) {
    (void)data; (void)p;
    printf("pointer axis-stop %u %s\n", time, axis_name(axis));
}
static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t discrete) { (void)data; (void)p; (void)axis; (void)discrete; }
static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
    .axis = pointer_axis, .frame = pointer_frame, .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop, .axis_discrete = pointer_axis_discrete,
};

// --- wl_touch

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *s, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)t; (void)serial; (void)s;
    printf("touch down %u %d %.3f %.3f\n", time, id, fixed(x), fixed(y));
}
static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
    (void)data; (void)t; (void)serial;
    printf("touch up %u %d\n", time, id);
}
static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)t;
    printf("touch motion %u %d %.3f %.3f\n", time, id, fixed(x), fixed(y));
}
static void touch_frame(void *data, struct wl_touch *t) { (void)data; (void)t; printf("touch frame\n"); }
static void touch_cancel(void *data, struct wl_touch *t) { (void)data; (void)t; printf("touch cancel\n"); }
static void touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major, wl_fixed_t minor) { (void)data; (void)t; (void)id; (void)major; (void)minor; }
static void touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation) { (void)data; (void)t; (void)id; (void)orientation; }
static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame,
    .cancel = touch_cancel, .shape = touch_shape, .orientation = touch_orientation,
};

// --- pointer gestures

static const char *ended(int32_t cancelled) { return cancelled ? "cancelled" : "done"; }

static void swipe_begin(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time, struct wl_surface *s, uint32_t fingers) {
    (void)data; (void)g; (void)serial; (void)s;
    printf("swipe begin %u %u\n", time, fingers);
}
static void swipe_update(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t time, wl_fixed_t dx, wl_fixed_t dy) {
    (void)data; (void)g;
    printf("swipe update %u %.3f %.3f\n", time, fixed(dx), fixed(dy));
}
static void swipe_end(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time, int32_t cancelled) {
    (void)data; (void)g; (void)serial;
    printf("swipe end %u %s\n", time, ended(cancelled));
}
static const struct zwp_pointer_gesture_swipe_v1_listener swipe_listener = { .begin = swipe_begin, .update = swipe_update, .end = swipe_end };

static void pinch_begin(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time, struct wl_surface *s, uint32_t fingers) {
    (void)data; (void)g; (void)serial; (void)s;
    printf("pinch begin %u %u\n", time, fingers);
}
static void pinch_update(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t time, wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t scale, wl_fixed_t rotation) {
    (void)data; (void)g;
    printf("pinch update %u %.3f %.3f %.4f %.3f\n", time, fixed(dx), fixed(dy), fixed(scale), fixed(rotation));
}
static void pinch_end(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time, int32_t cancelled) {
    (void)data; (void)g; (void)serial;
    printf("pinch end %u %s\n", time, ended(cancelled));
}
static const struct zwp_pointer_gesture_pinch_v1_listener pinch_listener = { .begin = pinch_begin, .update = pinch_update, .end = pinch_end };

static void hold_begin(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial, uint32_t time, struct wl_surface *s, uint32_t fingers) {
    (void)data; (void)g; (void)serial; (void)s;
    printf("hold begin %u %u\n", time, fingers);
}
static void hold_end(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial, uint32_t time, int32_t cancelled) {
    (void)data; (void)g; (void)serial;
    printf("hold end %u %s\n", time, ended(cancelled));
}
static const struct zwp_pointer_gesture_hold_v1_listener hold_listener = { .begin = hold_begin, .end = hold_end };

// --- the seat: a pointer (and its gestures) and a touch, as the seat offers them.
// The tests plug devices in and out: when the seat's last touch device goes,
// its wl_touch is dead and a new one must be asked for when another comes.

static void bind_pointer_gestures(struct client *c) {
    if (c->gestures == NULL || c->pointer == NULL || c->swipe != NULL) return;
    c->swipe = zwp_pointer_gestures_v1_get_swipe_gesture(c->gestures, c->pointer);
    zwp_pointer_gesture_swipe_v1_add_listener(c->swipe, &swipe_listener, c);
    c->pinch = zwp_pointer_gestures_v1_get_pinch_gesture(c->gestures, c->pointer);
    zwp_pointer_gesture_pinch_v1_add_listener(c->pinch, &pinch_listener, c);
    if (c->gestures_version >= ZWP_POINTER_GESTURES_V1_GET_HOLD_GESTURE_SINCE_VERSION) {
        c->hold = zwp_pointer_gestures_v1_get_hold_gesture(c->gestures, c->pointer);
        zwp_pointer_gesture_hold_v1_add_listener(c->hold, &hold_listener, c);
    }
}

static void release_pointer(struct client *c) {
    if (c->swipe) zwp_pointer_gesture_swipe_v1_destroy(c->swipe);
    if (c->pinch) zwp_pointer_gesture_pinch_v1_destroy(c->pinch);
    if (c->hold) zwp_pointer_gesture_hold_v1_destroy(c->hold);
    c->swipe = NULL, c->pinch = NULL, c->hold = NULL;
    if (wl_pointer_get_version(c->pointer) >= WL_POINTER_RELEASE_SINCE_VERSION) wl_pointer_release(c->pointer);
    else wl_pointer_destroy(c->pointer);
    c->pointer = NULL;
}

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct client *c = data;
    int pointer = (capabilities & WL_SEAT_CAPABILITY_POINTER) != 0, touch = (capabilities & WL_SEAT_CAPABILITY_TOUCH) != 0;
    printf("seat%s%s\n", pointer ? " pointer" : "", touch ? " touch" : "");
    if (pointer && c->pointer == NULL) {
        c->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(c->pointer, &pointer_listener, c);
        bind_pointer_gestures(c);
    } else if (!pointer && c->pointer != NULL) {
        release_pointer(c);
    }
    if (touch && c->touch == NULL) {
        c->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(c->touch, &touch_listener, c);
    } else if (!touch && c->touch != NULL) {
        if (wl_touch_get_version(c->touch) >= WL_TOUCH_RELEASE_SINCE_VERSION) wl_touch_release(c->touch);
        else wl_touch_destroy(c->touch);
        c->touch = NULL;
    }
}
static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data; (void)seat; (void)name; }
static const struct wl_seat_listener seat_listener = { .capabilities = seat_capabilities, .name = seat_name };

static uint32_t lesser(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct client *c = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0) {
        c->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, lesser(version, 4));
    } else if (strcmp(interface, wl_shm_interface.name) == 0) {
        c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
        c->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && c->seat == NULL) {
        // Version 7 is the newest whose events this client knows (axis_value120 came in 8).
        c->seat = wl_registry_bind(registry, name, &wl_seat_interface, lesser(version, 7));
        wl_seat_add_listener(c->seat, &seat_listener, c);
    } else if (strcmp(interface, zwp_pointer_gestures_v1_interface.name) == 0) {
        c->gestures_version = lesser(version, 3);
        c->gestures = wl_registry_bind(registry, name, &zwp_pointer_gestures_v1_interface, c->gestures_version);
    }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { .global = global, .global_remove = global_remove };

int main(int argc, char **argv) {
    const char *app_id = NULL;
    if (argc == 3 && strcmp(argv[1], "--app-id") == 0) {
        app_id = argv[2];
    } else if (argc != 1) {
        fprintf(stderr, "usage: gesture-client [--app-id ID]\n");
        return 64;
    }
    // One line per event, as it comes: the tests read the lines while it runs.
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct client c = { 0 };
    c.display = wl_display_connect(NULL);
    if (c.display == NULL) {
        fprintf(stderr, "gesture-client: cannot connect to the Wayland display (WAYLAND_DISPLAY=%s): %s\n",
                getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "unset", strerror(errno));
        return 69;
    }
    struct wl_registry *registry = wl_display_get_registry(c.display);
    wl_registry_add_listener(registry, &registry_listener, &c);
    wl_display_roundtrip(c.display);
    if (c.compositor == NULL || c.shm == NULL || c.wm_base == NULL || c.seat == NULL) {
        fprintf(stderr, "gesture-client: the compositor offers no%s%s%s%s\n", c.compositor ? "" : " wl_compositor",
                c.shm ? "" : " wl_shm", c.wm_base ? "" : " xdg_wm_base", c.seat ? "" : " wl_seat");
        return 69;
    }
    printf("gestures %u\n", c.gestures_version);
    // The seat's capabilities come after its bind: the pointer may be there before the gestures were bound.
    wl_display_roundtrip(c.display);
    bind_pointer_gestures(&c);

    c.surface = wl_compositor_create_surface(c.compositor);
    c.xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
    xdg_surface_add_listener(c.xdg_surface, &xdg_surface_listener, &c);
    c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
    xdg_toplevel_add_listener(c.toplevel, &toplevel_listener, &c);
    xdg_toplevel_set_title(c.toplevel, app_id ? app_id : "gesture-client");
    if (app_id) xdg_toplevel_set_app_id(c.toplevel, app_id);
    xdg_toplevel_set_fullscreen(c.toplevel, NULL);
    wl_surface_commit(c.surface);

    while (!c.closed && wl_display_dispatch(c.display) != -1) {
    }
    int failed = wl_display_get_error(c.display);
    if (failed) fprintf(stderr, "gesture-client: the connection failed: %s\n", strerror(failed));
    wl_display_disconnect(c.display);
    return failed ? 74 : 0;
}
