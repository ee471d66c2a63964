#include "CContext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table of a wlroots compositor's toplevels, apart from the Wayland
 * connection so that what a compositor (or the programs whose windows it lists)
 * may send is handled, and fuzzed, without one. */

typedef struct {
    const void *key;
    char *app_id, *title;
    int activated;
    /* Events up to `done` describe the next state. */
    char *pending_app_id, *pending_title;
    int pending_activated;
    uint64_t serial;
} toplevel;

struct gm_toplevels {
    toplevel *items;
    int count, capacity;
    uint64_t next_serial;
    int changed;
};

gm_toplevels *gm_toplevels_new(void) { return calloc(1, sizeof(gm_toplevels)); }

static toplevel *find(gm_toplevels *t, const void *key) {
    for (int i = 0; i < t->count; i++)
        if (t->items[i].key == key) return &t->items[i];
    return NULL;
}

/* Longer text would be cut when listed anyway (gm_window's fields): keeping
 * only that much bounds what a window's title can cost. */
static char *copy_capped(const char *text, size_t cap) {
    if (!text) return NULL;
    size_t n = strnlen(text, cap - 1);
    /* Never end inside a UTF-8 sequence: back off to its lead byte, at most
     * three bytes (text that is not UTF-8 is cut where it falls). */
    if (n == cap - 1 && text[n] != 0) {
        size_t cut = n;
        while (cut > 0 && n - cut < 3 && ((unsigned char)text[cut] & 0xC0) == 0x80) cut--;
        if (((unsigned char)text[cut] & 0xC0) != 0x80) n = cut;
    }
    char *copy = malloc(n + 1);
    if (!copy) return NULL;
    memcpy(copy, text, n);
    copy[n] = 0;
    return copy;
}

static void replace(char **slot, const char *text, size_t cap) {
    free(*slot);
    *slot = copy_capped(text, cap);
}

int gm_toplevels_add(gm_toplevels *t, const void *key) {
    if (t->count >= GM_TOPLEVEL_LIMIT || find(t, key)) return 0;
    if (t->count == t->capacity) {
        int capacity = t->capacity ? t->capacity * 2 : 16;
        if (capacity > GM_TOPLEVEL_LIMIT) capacity = GM_TOPLEVEL_LIMIT;
        toplevel *grown = realloc(t->items, sizeof *grown * (size_t)capacity);
        if (!grown) return 0;
        t->items = grown;
        t->capacity = capacity;
    }
    toplevel *added = &t->items[t->count++];
    memset(added, 0, sizeof *added);
    added->key = key;
    added->serial = ++t->next_serial;
    return 1;
}

void gm_toplevels_title(gm_toplevels *t, const void *key, const char *title) {
    toplevel *found = find(t, key);
    if (found) replace(&found->pending_title, title, sizeof(((gm_window *)0)->title));
}

void gm_toplevels_app_id(gm_toplevels *t, const void *key, const char *app_id) {
    toplevel *found = find(t, key);
    if (found) replace(&found->pending_app_id, app_id, sizeof(((gm_window *)0)->id));
}

void gm_toplevels_state(gm_toplevels *t, const void *key, const uint32_t *states, size_t count) {
    toplevel *found = find(t, key);
    if (!found) return;
    found->pending_activated = 0;
    for (size_t i = 0; i < count; i++)
        if (states[i] == GM_TOPLEVEL_STATE_ACTIVATED) found->pending_activated = 1;
}

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

void gm_toplevels_done(gm_toplevels *t, const void *key) {
    toplevel *found = find(t, key);
    if (!found) return;
    if (!same(found->app_id, found->pending_app_id) || !same(found->title, found->pending_title) ||
        found->activated != found->pending_activated)
        t->changed = 1;
    replace(&found->app_id, found->pending_app_id, sizeof(((gm_window *)0)->id));
    replace(&found->title, found->pending_title, sizeof(((gm_window *)0)->title));
    found->activated = found->pending_activated;
}

static void release(toplevel *item) {
    free(item->app_id), free(item->title), free(item->pending_app_id), free(item->pending_title);
}

int gm_toplevels_remove(gm_toplevels *t, const void *key) {
    toplevel *found = find(t, key);
    if (!found) return 0;
    release(found);
    *found = t->items[--t->count];
    t->changed = 1;
    return 1;
}

int gm_toplevels_take_changed(gm_toplevels *t) {
    int changed = t->changed;
    t->changed = 0;
    return changed;
}


int gm_toplevels_count(const gm_toplevels *t) { return t->count; }

const void *gm_toplevels_key(const gm_toplevels *t, int index) {
    return index >= 0 && index < t->count ? t->items[index].key : NULL;
}

int gm_toplevels_list(const gm_toplevels *t, gm_window *out, int max) {
    for (int i = 0; i < t->count && i < max; i++) {
        const toplevel *item = &t->items[i];
        memset(&out[i], 0, sizeof out[i]);
        if (item->app_id) snprintf(out[i].id, sizeof out[i].id, "%s", item->app_id);
        if (item->title) snprintf(out[i].title, sizeof out[i].title, "%s", item->title);
        out[i].pid = -1;
        out[i].handle = item->serial;
        out[i].focused = item->activated;
    }
    return t->count;
}

void gm_toplevels_free(gm_toplevels *t) {
    if (!t) return;
    for (int i = 0; i < t->count; i++) release(&t->items[i]);
    free(t->items);
    free(t);
}
