/* The table a handler receives. */
#include "Internal.h"

/* The table's own keys, made into Lua strings once per state: a handler call
 * sets some twenty of them, and finding each C string among Lua's strings
 * again (lua_setfield) was a third of the table's cost. They are upvalues of
 * the function that calls handlers, read in place: a table of them had to be
 * fetched from the registry on every call, then read key by key. */
enum {
    KEY_KIND = 1, KEY_PHASE, KEY_DIRECTION, KEY_EDGE, KEY_DEVICE, KEY_FINGERS,
    KEY_TAPS, KEY_RESTING, KEY_T, KEY_DURATION, KEY_DX, KEY_DY, KEY_DISTANCE,
    KEY_VELOCITY, KEY_X, KEY_Y, KEY_NX, KEY_NY, KEY_SCALE, KEY_ROTATION,
    KEY_SHAPE, KEY_SCORE, KEY_APP, KEY_MODIFIERS, KEY_COUNT = KEY_MODIFIERS
};

static const char *const key_names[KEY_COUNT] = {
    "kind", "phase", "direction", "edge", "device", "fingers",
    "taps", "resting", "t", "duration", "dx", "dy", "distance",
    "velocity", "x", "y", "nx", "ny", "scale", "rotation",
    "shape", "score", "app", "modifiers",
};

void gm_push_gesture_caller(lua_State *L, lua_CFunction body) {
    luaL_checkstack(L, KEY_COUNT, "the gesture's keys");
    for (int i = 0; i < KEY_COUNT; i++) lua_pushstring(L, key_names[i]);
    lua_pushcclosure(L, body, KEY_COUNT);
}

/* With the gesture's table at -1: pushes a key, for the caller to push its
 * value and store both with lua_rawset(L, -3). A fresh table has no
 * metatable, so a raw set is what lua_setfield would do. */
static void push_key(lua_State *L, int key) { lua_pushvalue(L, lua_upvalueindex(key)); }

static void set_string(lua_State *L, int key, const char *value) {
    if (!value) return;
    push_key(L, key);
    lua_pushstring(L, value);
    lua_rawset(L, -3);
}

static void set_number(lua_State *L, int key, lua_Number value) {
    push_key(L, key);
    lua_pushnumber(L, value);
    lua_rawset(L, -3);
}

static void set_integer(lua_State *L, int key, lua_Integer value) {
    push_key(L, key);
    lua_pushinteger(L, value);
    lua_rawset(L, -3);
}

/* g.app (when an application has the focus) and g.modifiers (always a table). */
static void push_context(lua_State *L, const gm_gesture *g) {
    if (g->app_id) {
        push_key(L, KEY_APP);
        lua_createtable(L, 0, 3);
        lua_pushstring(L, g->app_id);
        lua_setfield(L, -2, "id");
        lua_pushstring(L, g->app_title ? g->app_title : "");
        lua_setfield(L, -2, "title");
        if (g->app_pid > 0) {
            lua_pushinteger(L, g->app_pid);
            lua_setfield(L, -2, "pid");
        }
        lua_rawset(L, -3);
    }
    push_key(L, KEY_MODIFIERS);
    lua_createtable(L, 0, g->modifier_count > 0 ? g->modifier_count : 0);
    for (int i = 0; i < g->modifier_count; i++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, g->modifiers[i]);
    }
    lua_rawset(L, -3);
}

void gm_push_gesture(lua_State *L, const gm_gesture *g) {
    lua_createtable(L, 0, 22);
    set_string(L, KEY_KIND, g->kind);
    set_string(L, KEY_PHASE, g->phase);
    set_string(L, KEY_DIRECTION, g->direction);
    set_string(L, KEY_EDGE, g->edge);
    set_string(L, KEY_DEVICE, g->device);
    set_integer(L, KEY_FINGERS, g->fingers);
    set_integer(L, KEY_TAPS, g->taps);
    set_integer(L, KEY_RESTING, g->resting);
    set_number(L, KEY_T, g->t);
    set_number(L, KEY_DURATION, g->duration);
    set_number(L, KEY_DX, g->dx);
    set_number(L, KEY_DY, g->dy);
    set_number(L, KEY_DISTANCE, g->distance);
    set_number(L, KEY_VELOCITY, g->velocity);
    set_number(L, KEY_X, g->x);
    set_number(L, KEY_Y, g->y);
    if (g->has_normalized) {
        set_number(L, KEY_NX, g->nx);
        set_number(L, KEY_NY, g->ny);
    }
    set_number(L, KEY_SCALE, g->scale);
    set_number(L, KEY_ROTATION, g->rotation);
    set_string(L, KEY_SHAPE, g->shape);
    if (g->has_score) set_number(L, KEY_SCORE, g->score);
    /* A recognizer's own fields come after the built-in ones, as before: one
     * with a built-in's name replaces it. */
    for (int i = 0; i < g->field_count; i++) {
        const gm_field *f = &g->fields[i];
        switch (f->type) {
        case LUA_TNUMBER:
            if (f->is_integer) lua_pushinteger(L, f->integer); else lua_pushnumber(L, f->number);
            break;
        case LUA_TSTRING: lua_pushlstring(L, f->string, f->length); break;
        case LUA_TBOOLEAN: lua_pushboolean(L, f->boolean); break;
        default: continue;
        }
        lua_setfield(L, -2, f->name);
    }
    push_context(L, g);
}
