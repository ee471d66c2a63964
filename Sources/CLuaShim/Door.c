/* The one door from the host into Lua. Whatever the host asks of Lua (open
 * the sandbox, load a file, call a handler or a timer, carry `state` over a
 * reload) runs as a request inside one lua_pcall, under a fresh budget, so a
 * Lua error, out of memory included, comes back as a status. */
#include "Internal.h"

#include <string.h>

static int message_handler(lua_State *L) {
    gm_lua_limits *limits = gm_limits_of(L);
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        /* A stopped call runs no more rule code, not even an error's __tostring. */
        if (!(limits && limits->stopped) && luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static gm_request *request_of(lua_State *L) { return (gm_request *)lua_touserdata(L, 1); }

static int call_handler_body(lua_State *L);

/* Its address names, in the registry, the closure that calls handlers. */
static const char handler_caller = 0;

static int open_body(lua_State *L) {
    gm_request *request = request_of(L);
    gm_open_sandbox(L);
    gm_install_api(L, request->api);
    gm_push_gesture_caller(L, call_handler_body);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &handler_caller);
    return 0;
}

/* A chunk that does not load is not an error of the call: its message is the
 * result, and `load_status` says why. */
static int load_body(lua_State *L) {
    gm_request *request = request_of(L);
    int status = request->kind == GM_LOAD_FILE
        ? gm_load_stream(L, request->path, request->name, request->regular_only)
        : luaL_loadbufferx(L, request->text, request->length, request->name, "t");
    if (status != LUA_OK) {
        request->load_status = status;
        return 1;
    }
    lua_call(L, 0, 0);
    return 0;
}

static int call_ref_body(lua_State *L) {
    gm_request *request = request_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, request->ref);
    lua_call(L, 0, 0);
    return 0;
}

/* Runs as the closure GM_OPEN made, whose upvalues gm_push_gesture reads. */
static int call_handler_body(lua_State *L) {
    gm_request *request = request_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, request->ref);
    if (request->phase) {
        if (lua_type(L, -1) != LUA_TTABLE) { request->skipped = 1; return 0; }
        lua_pushstring(L, request->phase);
        if (lua_rawget(L, -2) != LUA_TFUNCTION) { request->skipped = 1; return 0; }
        lua_remove(L, -2);
    }
    gm_push_gesture(L, request->gesture);
    if (request->step != 0) {
        lua_pushinteger(L, request->step);
        lua_setfield(L, -2, "step");
    }
    lua_call(L, 1, 0);
    return 0;
}

static int adopt_state_body(lua_State *L) {
    gm_request *request = request_of(L);
    request->dropped = gm_copy_state(request->from, L);
    return 0;
}

static lua_CFunction body_of(gm_request_kind kind) {
    switch (kind) {
    case GM_OPEN: return open_body;
    case GM_LOAD_FILE:
    case GM_LOAD_TEXT: return load_body;
    case GM_CALL_REF: return call_ref_body;
    case GM_CALL_HANDLER: return call_handler_body;
    case GM_ADOPT_STATE: return adopt_state_body;
    case GM_NEW_OBJECT: return gm_new_object_body;
    case GM_CALL_RECOGNIZER: return gm_call_recognizer_body;
    }
    return NULL;
}

int gm_door(lua_State *L, gm_lua_limits *limits, gm_request *request) {
    lua_CFunction body = body_of(request->kind);
    if (!body || limits->in_call || !lua_checkstack(L, 4)) {
        /* Not reachable from rules: the host never calls Lua from inside Lua. */
        return GM_DOOR_REFUSED;
    }
    int base = lua_gettop(L) + 1;
    lua_pushcfunction(L, message_handler);
    if (request->kind != GM_CALL_HANDLER) {
        lua_pushcfunction(L, body);
    } else if (lua_rawgetp(L, LUA_REGISTRYINDEX, &handler_caller) != LUA_TFUNCTION) {
        /* A state GM_OPEN never opened has no handlers either. */
        lua_settop(L, base - 1);
        return GM_DOOR_REFUSED;
    }
    request->load_status = LUA_OK;
    request->skipped = 0;
    request->dropped = 0;
    limits->in_call = 1;
    limits->in_host = 0;
    limits->stopped = GM_RUNNING;
    limits->stopped_at[0] = 0;
    limits->memory_refused = 0;
    limits->allocated_since_check = 0;
    limits->instructions_left = limits->instruction_budget;
    gm_start_clock(limits);
    /* A stop in an earlier call left this thread raising at every instruction. */
    lua_sethook(L, gm_count_hook, LUA_MASKCOUNT, GM_WINDOW);

    lua_pushlightuserdata(L, request);
    int status = lua_pcall(L, 1, 1, base);
    lua_remove(L, base);
    if (status == LUA_OK) {
        if (request->load_status != LUA_OK) status = request->load_status;
        else lua_pop(L, 1);
    }
    limits->in_call = 0;
    limits->in_host = 0;
    limits->deadline_ns = 0;
    return status;
}
