/* Lua states: creation, the sandbox, the rule API and the trampoline that
 * host functions run in. */
#include "Internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *gm_allocate(void *ud, void *ptr, size_t osize, size_t nsize);

/* Only reached if a Lua error escapes every protected call, which the door is
 * there to prevent: say so and exit, rather than abort with a core dump. */
static int panic(lua_State *L) {
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)";
    char safe[900];
    gm_terminal_safe(message, safe, sizeof safe);
    char line[1024];
    int n = snprintf(line, sizeof line,
                     "gesturemap: internal error: a Lua error escaped every protected call: %s\n", safe);
    if (n > 0) {
        size_t length = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
        ssize_t written = write(2, line, length);
        (void)written;
    }
    exit(70);
    return 0;
}

lua_State *gm_newstate(gm_lua_limits *limits) {
    lua_State *L = lua_newstate(gm_allocate, limits);
    if (!L) return NULL;
    lua_atpanic(L, panic);
    /* On the main thread from the start, so every coroutine inherits it. */
    lua_sethook(L, gm_count_hook, LUA_MASKCOUNT, GM_WINDOW);
    return L;
}

void gm_close(lua_State *L) { lua_close(L); }

/* Every host function runs inside this C frame. A stopped call goes no
 * further; the host's error is raised here, after its frames have returned. */
static int trampoline(lua_State *L) {
    gm_lua_limits *limits = gm_limits_of(L);
    if (limits && limits->in_call && gm_should_stop(limits)) return gm_raise_stop(L, limits, 1);
    gm_host_function fn = (gm_host_function)lua_touserdata(L, lua_upvalueindex(1));
    if (limits) limits->in_host = 1;
    int n = fn(L);
    if (limits) limits->in_host = 0;
    if (n == GM_RAISE) return lua_error(L);
    return n;
}

int gm_host_upvalue_index(int i) { return lua_upvalueindex(i + 1); }

static void push_host_function(lua_State *L, gm_host_function fn, void *host) {
    lua_pushlightuserdata(L, (void *)fn);
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, trampoline, 2);
}

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
    /* requiref leaves copies in the registry's _LOADED; the os copy there must
     * not keep the full library reachable. */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushnil(L);
    lua_setfield(L, -2, LUA_OSLIBNAME);
    lua_pop(L, 1);

    static const char *const os_keep[] = {"time", "clock", "date", "getenv", NULL};
    keep_only(L, LUA_OSLIBNAME, os_keep);

    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, text_only_load, 1);
    lua_setglobal(L, "load");

    gm_open_patterns(L);
    gm_open_guards(L);
}

/* The host's objects (bindings, timer handles, recognizers) share one metatable
 * per kind. Sealed by __metatable, getmetatable gives its name instead: a rule
 * that could reach the table could give it a __gc, which every object the host
 * made afterwards would run outside any budget. */
static void set_methods(lua_State *L, const char *metatable, const gm_api_entry *methods, int count, void *host) {
    luaL_newmetatable(L, metatable);
    lua_pushstring(L, metatable);
    lua_setfield(L, -2, "__metatable");
    lua_createtable(L, 0, count);
    for (int i = 0; i < count; i++) {
        push_host_function(L, methods[i].fn, host);
        lua_setfield(L, -2, methods[i].name);
    }
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

void gm_install_api(lua_State *L, const gm_api *api) {
    gm_push_globals(L);
    for (int i = 0; i < api->global_count; i++) {
        push_host_function(L, api->globals[i].fn, api->host);
        lua_setfield(L, -2, api->globals[i].name);
    }
    lua_newtable(L);
    lua_setfield(L, -2, "state");
    lua_pop(L, 1);
    set_methods(L, api->timer_metatable, api->timer_methods, api->timer_method_count, api->host);
    set_methods(L, api->binding_metatable, api->binding_methods, api->binding_method_count, api->host);
    set_methods(L, api->recognizer_metatable, api->recognizer_methods, api->recognizer_method_count, api->host);

    int status = luaL_loadbufferx(L, api->prelude, api->prelude_length, api->prelude_name, "t");
    if (status != LUA_OK) lua_error(L);
    for (int i = 0; i < api->prelude_arg_count; i++) push_host_function(L, api->prelude_args[i].fn, api->host);
    lua_pushcfunction(L, gm_lib_load_module);
    lua_call(L, api->prelude_arg_count + 1, 0);
}

void gm_push_globals(lua_State *L) { lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); }
