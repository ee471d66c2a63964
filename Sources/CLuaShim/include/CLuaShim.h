#ifndef GESTUREMAP_CLUASHIM_H
#define GESTUREMAP_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Limits and accounting for one Lua state. Swift owns the struct; Lua's
 * allocator and count hook read and write it. */
typedef struct gm_lua_limits {
    size_t memory_used;
    size_t memory_peak;
    size_t memory_limit;        /* 0: unlimited */
    long long instruction_budget;   /* per call; 0: unlimited */
    long long instructions_left;
    int in_host;                /* >0 while a host (Swift) function runs: no allocation failures there */
    int budget_exceeded;        /* set when the count hook stopped a call */
    int memory_refused;         /* set when the allocator refused a request */
} gm_lua_limits;

/* A function implemented by the host. It returns the number of results, or
 * GM_RAISE_HERE / GM_RAISE_PLAIN with the error message on top of the stack; the
 * trampoline raises it, so no Lua error ever unwinds through host frames. */
typedef int (*gm_host_function)(lua_State *L);
#define GM_RAISE_HERE (-1)   /* prefix the message with the caller's file:line */
#define GM_RAISE_PLAIN (-2)  /* raise the value as it is */

lua_State *gm_newstate(gm_lua_limits *limits);
void gm_close(lua_State *L);

/* base (without dofile, loadfile; load restricted to text), string, table, math,
 * utf8, coroutine, and os.time/clock/date/getenv. Nothing else. */
void gm_open_sandbox(lua_State *L);

/* Pushes a closure that calls `fn` through the trampoline, with `nup` upvalues
 * taken from the stack (reachable from fn at upvalue index 2 onward). */
void gm_push_host_function(lua_State *L, gm_host_function fn, int nup);
int gm_host_upvalue_index(int i);

/* Calls the function below `nargs` arguments under the budget, with a message
 * handler that adds a traceback (not for memory errors, where Lua calls none). */
int gm_pcall_limited(lua_State *L, int nargs, int nresults, gm_lua_limits *limits);

/* Loads a chunk from a file with chunk name "@path" so errors carry file:line. */
int gm_load_file(lua_State *L, const char *path, const char *display_name);
int gm_load_buffer(lua_State *L, const char *buffer, size_t size, const char *chunkname);

/* "file:line:" of the Lua function `level` levels up the stack, pushed as a string. */
void gm_push_where(lua_State *L, int level);

/* The fields of a handler's gesture table. Strings may be NULL (field left nil);
 * has_normalized = 0 leaves nx, ny nil. */
typedef struct gm_gesture {
    const char *kind;
    const char *phase;
    const char *direction;
    const char *edge;
    const char *device;
    lua_Integer fingers;
    lua_Integer taps;
    lua_Number t, duration, dx, dy, distance, velocity, x, y, nx, ny, scale, rotation;
    int has_normalized;
} gm_gesture;

/* Builds the table in one call: the key strings are interned once per state. */
void gm_push_gesture(lua_State *L, const gm_gesture *g);

/* Deep-copies the value at `index` of `from` onto the top of `to`: strings,
 * numbers, booleans and tables (cycles kept). Functions, userdata and threads
 * cannot cross states and become nil; the count of those is returned. */
int gm_copy_value(lua_State *from, int index, lua_State *to);

/* string.find(s, pattern) as a yes/no, with Lua's patterns; -1 on a bad pattern. */
int gm_pattern_matches(lua_State *L, const char *s, const char *pattern);

/* Function-like macros of lua.h, as real functions. */
int gm_registryindex(void);
void gm_pop(lua_State *L, int n);
void gm_newtable(lua_State *L);
const char *gm_tostring(lua_State *L, int idx, size_t *len);
int gm_isnoneornil(lua_State *L, int idx);
void gm_remove(lua_State *L, int idx);
void gm_insert(lua_State *L, int idx);
lua_Number gm_tonumber(lua_State *L, int idx, int *isnum);
lua_Integer gm_tointeger(lua_State *L, int idx, int *isnum);
void gm_setglobal_nil(lua_State *L, const char *name);
int gm_ref(lua_State *L);
void gm_unref(lua_State *L, int ref);
void gm_getref(lua_State *L, int ref);
void gm_collect(lua_State *L);
void gm_pushlstring(lua_State *L, const char *s, size_t len);

#endif
