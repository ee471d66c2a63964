#ifndef GESTUREMAP_CLUASHIM_INTERNAL_H
#define GESTUREMAP_CLUASHIM_INTERNAL_H

#include "CLuaShim.h"

/* Instructions between two looks at the budget and the clock, and the shorter
 * window used once instructions turn out to be slow (huge string compares). */
#define GM_WINDOW 1000
#define GM_SHORT_WINDOW 10
/* A window slower than this switches the thread to the short one. */
#define GM_SLOW_WINDOW_NS 1000000LL
/* The clock is read after this many bytes allocated, as big allocations come
 * with C work proportional to them. */
#define GM_BYTES_BETWEEN_CLOCK_READS (1u << 20)

gm_lua_limits *gm_limits_of(lua_State *L);
long long gm_now_ns(void);
long long gm_thread_cpu_ns(void);
/* Starts a call's clock: CPU time is read at most every 10 ms, as a system
 * call costs more than a short handler. */
void gm_start_clock(gm_lua_limits *limits);

/* Whether the call must stop now (budget spent, clock passed); sets `stopped`. */
int gm_should_stop(gm_lua_limits *limits);

/* Raises the stop, naming the nearest Lua function at or above `level`, and
 * makes this thread raise again at its every instruction. Never returns. */
int gm_raise_stop(lua_State *L, gm_lua_limits *limits, int level);

/* Charges `cost` instructions of C work to the budget, raising the stop when
 * it runs out or the CPU time has; a negative cost is more than any budget. */
void gm_charge_work(lua_State *L, long long cost);

void gm_count_hook(lua_State *L, lua_Debug *ar);
void gm_where(lua_State *L, int level, char *out, size_t size);

/* The sandbox's libraries, pruned and guarded; the rule API; the prelude. */
void gm_open_sandbox(lua_State *L);
void gm_open_patterns(lua_State *L);
void gm_open_guards(lua_State *L);
void gm_install_api(lua_State *L, const gm_api *api);

/* Loads a text chunk from a file without reading it whole into Lua first;
 * pushes the function or a message. */
int gm_load_stream(lua_State *L, const char *path, const char *display_name, int regular_only);
/* load_module(path, display_name) for the prelude's require. */
int gm_lib_load_module(lua_State *L);

/* Pushes `body` as a C closure whose upvalues are the gesture table's keys:
 * gm_push_gesture runs only inside such a closure. */
void gm_push_gesture_caller(lua_State *L, lua_CFunction body);
void gm_push_gesture(lua_State *L, const gm_gesture *g);
int gm_new_object_body(lua_State *L);
int gm_call_recognizer_body(lua_State *L);
int gm_copy_state(lua_State *from, lua_State *to);

#endif
