#include "CLuaShim.h"

#include <stdlib.h>
#include <string.h>

/* Every host function runs inside this C frame. When the host reports an error,
 * lua_error is called here, after the host's frames have returned. */
static int trampoline(lua_State *L) {
    gm_host_function fn = (gm_host_function)lua_touserdata(L, lua_upvalueindex(1));
    gm_lua_limits *limits = NULL;
    void *ud = NULL;
    lua_getallocf(L, &ud);
    limits = (gm_lua_limits *)ud;
    if (limits) limits->in_host++;
    int n = fn(L);
    if (limits) limits->in_host--;
    if (n == GM_RAISE_HERE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (n == GM_RAISE_PLAIN) return lua_error(L);
    return n;
}

static void *accounting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    gm_lua_limits *limits = (gm_lua_limits *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        limits->memory_used -= old;
        return NULL;
    }
    if (limits->memory_limit && nsize > old && limits->in_host == 0 &&
        limits->memory_used - old + nsize > limits->memory_limit) {
        limits->memory_refused = 1;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    limits->memory_used = limits->memory_used - old + nsize;
    if (limits->memory_used > limits->memory_peak) limits->memory_peak = limits->memory_used;
    return p;
}

lua_State *gm_newstate(gm_lua_limits *limits) {
    lua_State *L = lua_newstate(accounting_alloc, limits);
    return L;
}

void gm_close(lua_State *L) { lua_close(L); }

/* load() that only accepts text chunks: precompiled bytecode can break out of
 * any sandbox. The real load is this closure's only upvalue. */
static int text_only_load(lua_State *L) {
    int nargs = lua_gettop(L);
    luaL_checkany(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    if (nargs >= 2) lua_pushvalue(L, 2); else lua_pushnil(L);
    lua_pushliteral(L, "t");
    int callargs = 3;
    if (nargs >= 4) { lua_pushvalue(L, 4); callargs = 4; }
    lua_call(L, callargs, LUA_MULTRET);
    return lua_gettop(L) - nargs;
}

static void keep_only(lua_State *L, const char *lib, const char *const *keep) {
    lua_getglobal(L, lib);
    if (!lua_istable(L, -1)) { lua_pop(L, 1); return; }
    lua_newtable(L);
    for (const char *const *k = keep; *k; k++) {
        lua_getfield(L, -2, *k);
        lua_setfield(L, -2, *k);
    }
    lua_setglobal(L, lib);
    lua_pop(L, 1);
}

void gm_open_sandbox(lua_State *L) {
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},
        {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},
        {LUA_COLIBNAME, luaopen_coroutine},
        {LUA_OSLIBNAME, luaopen_os},
        {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    /* requiref leaves copies in package.loaded-like registry table _LOADED; the
     * os copy there must not keep the full library reachable. */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushnil(L);
    lua_setfield(L, -2, LUA_OSLIBNAME);
    lua_pop(L, 1);

    static const char *const os_keep[] = {"time", "clock", "date", "getenv", NULL};
    keep_only(L, LUA_OSLIBNAME, os_keep);

    gm_setglobal_nil(L, "dofile");
    gm_setglobal_nil(L, "loadfile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, text_only_load, 1);
    lua_setglobal(L, "load");
}

void gm_push_host_function(lua_State *L, gm_host_function fn, int nup) {
    lua_pushlightuserdata(L, (void *)fn);
    if (nup > 0) lua_insert(L, -(nup + 1));
    lua_pushcclosure(L, trampoline, nup + 1);
}

int gm_host_upvalue_index(int i) { return lua_upvalueindex(i + 1); }

static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    void *ud = NULL;
    lua_getallocf(L, &ud);
    gm_lua_limits *limits = (gm_lua_limits *)ud;
    if (!limits || limits->instruction_budget <= 0) return;
    limits->instructions_left -= 1000;
    if (limits->instructions_left <= 0) {
        limits->budget_exceeded = 1;
        /* Keep raising until the call unwinds: a handler's pcall must not swallow it. */
        limits->instructions_left = 0;
        /* Level 0 inside a hook is the Lua function that was running. */
        luaL_where(L, 0);
        lua_pushliteral(L, "instruction limit exceeded");
        lua_concat(L, 2);
        lua_error(L);
    }
}

static int message_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int gm_pcall_limited(lua_State *L, int nargs, int nresults, gm_lua_limits *limits) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    if (limits) {
        limits->budget_exceeded = 0;
        limits->memory_refused = 0;
        limits->instructions_left = limits->instruction_budget;
        if (limits->instruction_budget > 0) lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
    }
    int status = lua_pcall(L, nargs, nresults, base);
    if (limits && limits->instruction_budget > 0) lua_sethook(L, NULL, 0, 0);
    lua_remove(L, base);
    return status;
}

int gm_load_file(lua_State *L, const char *path, const char *display_name) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        lua_pushfstring(L, "cannot open %s", display_name);
        return LUA_ERRFILE;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) luaL_addlstring(&b, chunk, n);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        luaL_pushresult(&b);
        lua_pop(L, 1);
        lua_pushfstring(L, "cannot read %s", display_name);
        return LUA_ERRFILE;
    }
    luaL_pushresult(&b);
    size_t size = 0;
    const char *text = lua_tolstring(L, -1, &size);
    lua_pushfstring(L, "@%s", display_name);
    int status = luaL_loadbufferx(L, text, size, lua_tostring(L, -1), "t");
    /* stack: text, chunkname, result */
    lua_remove(L, -2);
    lua_remove(L, -2);
    return status;
}

int gm_load_buffer(lua_State *L, const char *buffer, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, buffer, size, chunkname, "t");
}

void gm_push_where(lua_State *L, int level) { luaL_where(L, level); }

int gm_registryindex(void) { return LUA_REGISTRYINDEX; }
void gm_pop(lua_State *L, int n) { lua_pop(L, n); }
void gm_newtable(lua_State *L) { lua_newtable(L); }
const char *gm_tostring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
int gm_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
void gm_remove(lua_State *L, int idx) { lua_remove(L, idx); }
void gm_insert(lua_State *L, int idx) { lua_insert(L, idx); }
lua_Number gm_tonumber(lua_State *L, int idx, int *isnum) { return lua_tonumberx(L, idx, isnum); }
lua_Integer gm_tointeger(lua_State *L, int idx, int *isnum) { return lua_tointegerx(L, idx, isnum); }
void gm_setglobal_nil(lua_State *L, const char *name) {
    lua_pushnil(L);
    lua_setglobal(L, name);
}
int gm_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
void gm_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
void gm_getref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
void gm_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
void gm_pushlstring(lua_State *L, const char *s, size_t len) { lua_pushlstring(L, s, len); }

static void set_string(lua_State *L, const char *key, const char *value) {
    if (!value) return;
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void set_number(lua_State *L, const char *key, lua_Number value) {
    lua_pushnumber(L, value);
    lua_setfield(L, -2, key);
}

void gm_push_gesture(lua_State *L, const gm_gesture *g) {
    lua_createtable(L, 0, 20);
    set_string(L, "kind", g->kind);
    set_string(L, "phase", g->phase);
    set_string(L, "direction", g->direction);
    set_string(L, "edge", g->edge);
    set_string(L, "device", g->device);
    lua_pushinteger(L, g->fingers);
    lua_setfield(L, -2, "fingers");
    lua_pushinteger(L, g->taps);
    lua_setfield(L, -2, "taps");
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
}

/* `seen` (on `to`'s stack at seen_index) maps source tables (light userdata of
 * their address) to their copies, so shared and cyclic tables stay shared. */
static int copy_value(lua_State *from, int index, lua_State *to, int seen_index, int depth) {
    int dropped = 0;
    index = lua_absindex(from, index);
    switch (lua_type(from, index)) {
    case LUA_TNIL: lua_pushnil(to); break;
    case LUA_TBOOLEAN: lua_pushboolean(to, lua_toboolean(from, index)); break;
    case LUA_TNUMBER:
        if (lua_isinteger(from, index)) lua_pushinteger(to, lua_tointeger(from, index));
        else lua_pushnumber(to, lua_tonumber(from, index));
        break;
    case LUA_TSTRING: {
        size_t len = 0;
        const char *str = lua_tolstring(from, index, &len);
        lua_pushlstring(to, str, len);
        break;
    }
    case LUA_TTABLE: {
        const void *key = lua_topointer(from, index);
        lua_pushlightuserdata(to, (void *)key);
        if (lua_rawget(to, seen_index) == LUA_TTABLE) break;
        lua_pop(to, 1);
        if (depth > 100) { lua_pushnil(to); return 1; }
        lua_newtable(to);
        lua_pushlightuserdata(to, (void *)key);
        lua_pushvalue(to, -2);
        lua_rawset(to, seen_index);
        lua_pushnil(from);
        while (lua_next(from, index) != 0) {
            int k = lua_gettop(from) - 1;
            int kt = lua_type(from, k);
            if (kt == LUA_TFUNCTION || kt == LUA_TUSERDATA || kt == LUA_TTHREAD || kt == LUA_TLIGHTUSERDATA) {
                dropped++;
                lua_pop(from, 1);
                continue;
            }
            dropped += copy_value(from, k, to, seen_index, depth + 1);
            dropped += copy_value(from, k + 1, to, seen_index, depth + 1);
            if (lua_isnil(to, -2) || lua_isnil(to, -1)) lua_pop(to, 2);
            else lua_rawset(to, -3);
            lua_pop(from, 1);
        }
        break;
    }
    default:
        lua_pushnil(to);
        dropped = 1;
    }
    return dropped;
}

int gm_copy_value(lua_State *from, int index, lua_State *to) {
    lua_newtable(to);
    int seen = lua_gettop(to);
    int dropped = copy_value(from, index, to, seen, 0);
    lua_remove(to, seen);
    return dropped;
}

static int find_protected(lua_State *L) {
    const char *s = lua_tostring(L, 1);
    const char *p = lua_tostring(L, 2);
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "find");
    lua_pushstring(L, s);
    lua_pushstring(L, p);
    lua_call(L, 2, 1);
    lua_pushboolean(L, !lua_isnil(L, -1));
    return 1;
}

int gm_pattern_matches(lua_State *L, const char *s, const char *pattern) {
    lua_pushcfunction(L, find_protected);
    lua_pushstring(L, s);
    lua_pushstring(L, pattern);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    int result = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return result;
}
