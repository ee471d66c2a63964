/* Lua recognizers: their objects, and the frame table they read, which is
 * written in place every frame rather than built anew. */
#include "Internal.h"

/* The holder of the reused frame: [1] the frame table, [2] its touches list,
 * [3] the touch tables, by position, [4] how many touches the list held. */
enum { HOLDER_FRAME = 1, HOLDER_LIST, HOLDER_POOL, HOLDER_COUNT };

static const char *const phases[] = { "began", "moved", "stationary", "ended", "cancelled" };

static void raw_number(lua_State *L, int t, const char *key, lua_Number v) {
    lua_pushstring(L, key);
    lua_pushnumber(L, v);
    lua_rawset(L, t);
}

static void raw_nil(lua_State *L, int t, const char *key) {
    lua_pushstring(L, key);
    lua_pushnil(L);
    lua_rawset(L, t);
}

static int make_holder(lua_State *L) {
    lua_createtable(L, 4, 0);
    int holder = lua_gettop(L);
    lua_createtable(L, 0, 6);
    lua_rawseti(L, holder, HOLDER_FRAME);
    lua_createtable(L, 4, 0);
    lua_rawseti(L, holder, HOLDER_LIST);
    lua_createtable(L, 4, 0);
    lua_rawseti(L, holder, HOLDER_POOL);
    lua_pushinteger(L, 0);
    lua_rawseti(L, holder, HOLDER_COUNT);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* Pushes the frame table, filled with `frame`. The rules may have changed
 * anything in it since the last frame: every field is set again, raw. */
static void push_frame(lua_State *L, gm_request *request) {
    if (request->frame_ref == LUA_NOREF || request->frame_ref == LUA_REFNIL) request->frame_ref = make_holder(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, request->frame_ref);
    int holder = lua_gettop(L);
    lua_rawgeti(L, holder, HOLDER_FRAME);
    int frame = lua_gettop(L);
    lua_rawgeti(L, holder, HOLDER_LIST);
    int list = lua_gettop(L);
    lua_rawgeti(L, holder, HOLDER_POOL);
    int pool = lua_gettop(L);
    lua_rawgeti(L, holder, HOLDER_COUNT);
    lua_Integer previous = lua_tointeger(L, -1);
    lua_pop(L, 1);

    const gm_frame *f = request->frame;
    raw_number(L, frame, "t", f->t);
    lua_pushstring(L, "fingers");
    lua_pushinteger(L, f->fingers);
    lua_rawset(L, frame);
    if (f->has_size) {
        raw_number(L, frame, "width", f->width);
        raw_number(L, frame, "height", f->height);
    } else {
        raw_nil(L, frame, "width");
        raw_nil(L, frame, "height");
    }
    lua_pushstring(L, "touches");
    lua_pushvalue(L, list);
    lua_rawset(L, frame);
    for (int i = 0; i < f->touch_count; i++) {
        const gm_touch *t = &f->touches[i];
        if (lua_rawgeti(L, pool, i + 1) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 7);
            lua_pushvalue(L, -1);
            lua_rawseti(L, pool, i + 1);
        }
        int touch = lua_gettop(L);
        lua_pushstring(L, "id");
        lua_pushinteger(L, t->id);
        lua_rawset(L, touch);
        lua_pushstring(L, "phase");
        lua_pushstring(L, phases[t->phase >= 0 && t->phase < 5 ? t->phase : 1]);
        lua_rawset(L, touch);
        raw_number(L, touch, "x", t->x);
        raw_number(L, touch, "y", t->y);
        raw_number(L, touch, "vx", t->vx);
        raw_number(L, touch, "vy", t->vy);
        lua_pushstring(L, "resting");
        lua_pushboolean(L, t->resting);
        lua_rawset(L, touch);
        lua_rawseti(L, list, i + 1);
    }
    for (lua_Integer i = f->touch_count + 1; i <= previous; i++) {
        lua_pushnil(L);
        lua_rawseti(L, list, i);
    }
    lua_pushinteger(L, f->touch_count);
    lua_rawseti(L, holder, HOLDER_COUNT);
    lua_settop(L, frame);
    lua_remove(L, holder);
}

int gm_new_object_body(lua_State *L) {
    gm_request *request = (gm_request *)lua_touserdata(L, 1);
    lua_createtable(L, 0, 4);
    luaL_setmetatable(L, request->metatable);
    lua_pushstring(L, request->name);
    lua_setfield(L, -2, "name");
    request->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int gm_call_recognizer_body(lua_State *L) {
    gm_request *request = (gm_request *)lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, request->ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, request->self_ref);
    if (request->state && lua_type(L, -1) == LUA_TTABLE) {
        lua_pushstring(L, "state");
        lua_pushstring(L, request->state);
        lua_rawset(L, -3);
    }
    int arguments = 1;
    if (request->frame) {
        push_frame(L, request);
        arguments = 2;
    } else if (request->has_time) {
        lua_pushnumber(L, request->time);
        arguments = 2;
    }
    lua_call(L, arguments, 0);
    return 0;
}
