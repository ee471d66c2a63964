/* Function-like macros of lua.h, as real functions Swift can call. */
#include "Internal.h"

int gm_registryindex(void) { return LUA_REGISTRYINDEX; }
void gm_pop(lua_State *L, int n) { lua_pop(L, n); }
const char *gm_tostring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
lua_Number gm_tonumber(lua_State *L, int idx, int *isnum) { return lua_tonumberx(L, idx, isnum); }
lua_Integer gm_tointeger(lua_State *L, int idx, int *isnum) { return lua_tointegerx(L, idx, isnum); }
int gm_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
void gm_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
void gm_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
void gm_pushlstring(lua_State *L, const char *s, size_t len) { lua_pushlstring(L, s, len); }
