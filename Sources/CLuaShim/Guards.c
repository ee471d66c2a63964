/* Library functions that do unbounded work in C, where the count hook never
 * runs, made to charge that work to the budget; and setmetatable without
 * finalizers.
 *
 * Finalizers (__gc) are refused rather than run under a budget: Lua runs
 * them with hooks off, whenever the collector gets to them (inside any
 * allocation, in `check`, at exit, on a reload), so no budget could be
 * charged to the rule that set them, and a looping one would hang whatever
 * the host was doing at the time. */
#include "Internal.h"

#include <math.h>
#include <string.h>

/* Calls upvalue 1 (the library's own function) with this call's arguments. */
static int call_original(lua_State *L) {
    int nargs = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, nargs, LUA_MULTRET);
    return lua_gettop(L);
}

static void wrap(lua_State *L, const char *library, const char *name, lua_CFunction guard) {
    lua_getglobal(L, library);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, guard, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

static int guarded_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: metatables with __gc are not allowed: finalizers would run outside "
                                 "any budget, whenever the collector gets to them; release things explicitly instead");
        lua_pop(L, 1);
    }
    return call_original(L);
}

/* string.rep of an empty string copies nothing n times: a loop of up to
 * 2^63 turns. Anything longer allocates, and the allocator counts it. */
static int guarded_rep(lua_State *L) {
    size_t length, separator_length = 0;
    luaL_checklstring(L, 1, &length);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &separator_length);
    if (n <= 0 || length + separator_length == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    return call_original(L);
}

/* A table, or something with a metatable that may act as one. */
static void check_listlike(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE) return;
    if (!lua_getmetatable(L, 1)) luaL_typeerror(L, 1, "table");
    lua_pop(L, 1);
}

/* Elements moved between two charges to the budget, so that with no
 * instruction budget the CPU time is still looked at. */
#define SLICE 65536

/* table.insert(list, [pos,] value), shifting list[pos..#list] up by one. */
static int guarded_insert(lua_State *L) {
    int nargs = lua_gettop(L);
    check_listlike(L);
    lua_Integer first_empty = (lua_Integer)((lua_Unsigned)luaL_len(L, 1) + 1u);
    lua_Integer pos;
    if (nargs == 2) {
        pos = first_empty;
    } else if (nargs == 3) {
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)first_empty, 2, "position out of bounds");
        lua_Unsigned shift = (lua_Unsigned)first_empty - (lua_Unsigned)pos;
        gm_charge_work(L, shift > (lua_Unsigned)LUA_MAXINTEGER ? -1 : (lua_Integer)shift);
        for (lua_Integer i = first_empty; i > pos; i--) {
            if ((i & (SLICE - 1)) == 0) gm_charge_work(L, 0);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
    } else {
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* table.remove(list [, pos]), shifting list[pos+1..#list] down by one. */
static int guarded_remove(lua_State *L) {
    check_listlike(L);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    if (size > pos) gm_charge_work(L, size - pos);
    for (; pos < size; pos++) {
        if ((pos & (SLICE - 1)) == 0) gm_charge_work(L, 0);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.move(a1, f, e, t [, a2]): e - f + 1 elements, moved by the library
 * in slices. Moving up within one table goes from the top slice down, as
 * the library itself goes from the top element down, so no element is
 * overwritten before it is read. */
static int guarded_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    if (e < f) return call_original(L);
    lua_Unsigned span = (lua_Unsigned)e - (lua_Unsigned)f;
    gm_charge_work(L, span >= (lua_Unsigned)LUA_MAXINTEGER ? -1 : (lua_Integer)span + 1);
    if (span < SLICE) return call_original(L);
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    luaL_argcheck(L, t <= LUA_MAXINTEGER - (lua_Integer)span || t <= f, 4, "destination wrap around");
    lua_settop(L, 5);
    int destination = lua_isnil(L, 5) ? 1 : 5;
    int same = destination == 1 || lua_rawequal(L, 1, 5);
    int downward = same && t > f && t <= e;
    lua_Integer count = (lua_Integer)span + 1;
    for (lua_Integer done = 0; done < count; done += SLICE) {
        lua_Integer length = count - done < SLICE ? count - done : SLICE;
        lua_Integer offset = downward ? count - done - length : done;
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, 1);
        lua_pushinteger(L, f + offset);
        lua_pushinteger(L, f + offset + length - 1);
        lua_pushinteger(L, t + offset);
        lua_pushvalue(L, destination);
        lua_call(L, 5, 0);
        gm_charge_work(L, 0);
    }
    lua_pushvalue(L, destination);
    return 1;
}

static lua_Integer elements(lua_State *L) {
    lua_Integer raw = lua_type(L, 1) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, 1) : 0;
    return raw;
}

/* table.sort: about n log n comparisons in C. */
static int guarded_sort(lua_State *L) {
    check_listlike(L);
    lua_Integer n = luaL_len(L, 1);
    lua_Integer raw = elements(L);
    if (raw > n) n = raw;
    if (n > 1) {
        double cost = (double)n * log2((double)n);
        gm_charge_work(L, cost < 1e18 ? (long long)cost : -1);
    }
    int results = call_original(L);
    gm_charge_work(L, 0);
    return results;
}

/* table.concat(list [, sep [, i [, j]]]): one turn per element, even empty ones. */
static int guarded_concat(lua_State *L) {
    check_listlike(L);
    lua_Integer raw = elements(L);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer j = lua_isnoneornil(L, 4) ? raw : luaL_checkinteger(L, 4);
    if (j >= i) {
        lua_Unsigned span = (lua_Unsigned)j - (lua_Unsigned)i;
        gm_charge_work(L, span >= (lua_Unsigned)raw ? raw + 1 : (lua_Integer)span + 1);
    }
    return call_original(L);
}

/* A full collection walks all of Lua's memory. */
static int guarded_collectgarbage(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    if (strcmp(option, "collect") == 0 || strcmp(option, "step") == 0) {
        gm_lua_limits *limits = gm_limits_of(L);
        if (limits) gm_charge_work(L, (long long)(limits->memory_used / 16));
    }
    int results = call_original(L);
    gm_charge_work(L, 0);
    return results;
}

/* Functions that walk a whole string or format without allocating. */
static int guarded_scan(lua_State *L) {
    size_t length = 0;
    int which = (int)lua_tointeger(L, lua_upvalueindex(2));
    if (lua_type(L, which) == LUA_TSTRING) lua_tolstring(L, which, &length);
    gm_charge_work(L, (long long)(length / 16));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static void wrap_scan(lua_State *L, const char *library, const char *name, int which) {
    lua_getglobal(L, library);
    lua_getfield(L, -1, name);
    lua_pushinteger(L, which);
    lua_pushcclosure(L, guarded_scan, 2);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void gm_open_guards(lua_State *L) {
    wrap(L, LUA_GNAME, "setmetatable", guarded_setmetatable);
    wrap(L, LUA_GNAME, "collectgarbage", guarded_collectgarbage);
    wrap(L, LUA_STRLIBNAME, "rep", guarded_rep);
    wrap(L, LUA_TABLIBNAME, "insert", guarded_insert);
    wrap(L, LUA_TABLIBNAME, "remove", guarded_remove);
    wrap(L, LUA_TABLIBNAME, "move", guarded_move);
    wrap(L, LUA_TABLIBNAME, "sort", guarded_sort);
    wrap(L, LUA_TABLIBNAME, "concat", guarded_concat);
    wrap_scan(L, LUA_UTF8LIBNAME, "len", 1);
    wrap_scan(L, LUA_UTF8LIBNAME, "offset", 1);
    wrap_scan(L, LUA_STRLIBNAME, "pack", 1);
    wrap_scan(L, LUA_STRLIBNAME, "packsize", 1);
    wrap_scan(L, LUA_STRLIBNAME, "unpack", 1);
}
