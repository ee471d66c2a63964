/* The table a handler receives. */
#include "Internal.h"

static void set_string(lua_State *L, const char *key, const char *value) {
    if (!value) return;
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void set_number(lua_State *L, const char *key, lua_Number value) {
    lua_pushnumber(L, value);
    lua_setfield(L, -2, key);
}

static void set_integer(lua_State *L, const char *key, lua_Integer value) {
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

/* g.app (when an application has the focus) and g.modifiers (always a table). */
static void push_context(lua_State *L, const gm_gesture *g) {
    if (g->app_id) {
        lua_createtable(L, 0, 3);
        set_string(L, "id", g->app_id);
        set_string(L, "title", g->app_title ? g->app_title : "");
        if (g->app_pid > 0) set_integer(L, "pid", g->app_pid);
        lua_setfield(L, -2, "app");
    }
    lua_createtable(L, 0, g->modifier_count > 0 ? g->modifier_count : 0);
    for (int i = 0; i < g->modifier_count; i++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, g->modifiers[i]);
    }
    lua_setfield(L, -2, "modifiers");
}

void gm_push_gesture(lua_State *L, const gm_gesture *g) {
    lua_createtable(L, 0, 22);
    set_string(L, "kind", g->kind);
    set_string(L, "phase", g->phase);
    set_string(L, "direction", g->direction);
    set_string(L, "edge", g->edge);
    set_string(L, "device", g->device);
    set_integer(L, "fingers", g->fingers);
    set_integer(L, "taps", g->taps);
    set_integer(L, "resting", g->resting);
    set_number(L, "t", g->t);
    set_number(L, "duration", g->duration);
    set_number(L, "dx", g->dx);
    set_number(L, "dy", g->dy);
    set_number(L, "distance", g->distance);
    set_number(L, "velocity", g->velocity);
    set_number(L, "x", g->x);
    set_number(L, "y", g->y);
    if (g->has_normalized) {
        set_number(L, "nx", g->nx);
        set_number(L, "ny", g->ny);
    }
    set_number(L, "scale", g->scale);
    set_number(L, "rotation", g->rotation);
    set_string(L, "shape", g->shape);
    if (g->has_score) set_number(L, "score", g->score);
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
