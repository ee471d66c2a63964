#ifndef GESTUREMAP_CLUASHIM_H
#define GESTUREMAP_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Why a call into Lua was stopped. */
enum {
    GM_RUNNING = 0,
    GM_STOPPED_INSTRUCTIONS = 1,   /* the instruction budget ran out */
    GM_STOPPED_TIME = 2,           /* the call used up its CPU time */
};

/* Limits and accounting, shared by every Lua state of one engine (a reload's
 * new state counts together with the old one). Swift owns the struct; the
 * allocator, the count hook, the trampoline and the library wrappers read and
 * write it. One call into Lua runs at a time. */
typedef struct gm_lua_limits {
    size_t memory_used;            /* bytes malloc holds for Lua, plus host charges */
    size_t memory_peak;
    size_t memory_limit;           /* 0: unlimited */
    long long instruction_budget;  /* per call; 0: unlimited */
    long long instructions_left;
    long long time_limit_ns;       /* CPU time per call; 0: unlimited */
    long long deadline_ns;         /* CLOCK_MONOTONIC, when to look at the CPU time next; 0: none */
    long long call_cpu_ns;         /* the thread's CPU time when the call began (at most 10 ms early) */
    long long cpu_sample_ns;       /* the last reading of the thread's CPU time */
    long long cpu_sampled_at_ns;   /* and when it was taken (CLOCK_MONOTONIC) */
    long long window_start_ns;     /* when the running thread's count window began */
    size_t allocated_since_check;  /* bytes since the clock was last read */
    int in_host;                   /* 1 while a host (Swift) function runs: its allocations never fail */
    int in_call;                   /* 1 inside gm_door */
    int stopped;                   /* GM_RUNNING, or why the call is being stopped */
    int memory_refused;            /* the allocator refused a request during this call */
    char stopped_at[512];          /* "rules.lua:12: instruction limit exceeded" */
} gm_lua_limits;

/* A function implemented by the host. It returns the number of results, or
 * GM_RAISE with the error message on top of the stack; the trampoline raises
 * it after the host's frames have returned, so no Lua error ever unwinds
 * through Swift. Host functions must never raise themselves: they use raw
 * table access only, lua_checkstack before pushing more than a few values,
 * and never call Lua. */
typedef int (*gm_host_function)(lua_State *L);
#define GM_RAISE (-1)

/* ---- States ---- */

/* A state whose allocations are accounted in `limits`, with the count hook
 * installed (coroutines inherit it) and lua_atpanic as a last line. NULL when
 * even that does not fit. */
lua_State *gm_newstate(gm_lua_limits *limits);
/* `text` for a terminal, into `out` (NUL-terminated, cut short to fit `size`):
 * every control but newline and tab, C1, line separators and bidirectional
 * overrides written as \u{HEX}, bytes that are no UTF-8 as U+FFFD. Returns
 * the length written. */
size_t gm_terminal_safe(const char *text, char *out, size_t size);
void gm_close(lua_State *L);

/* ---- The door: every host->Lua operation ---- */

typedef struct gm_api_entry {
    const char *name;
    gm_host_function fn;
} gm_api_entry;

/* The rule language's API, installed by GM_OPEN. */
typedef struct gm_api {
    void *host;                          /* upvalue 1 of every host function */
    const gm_api_entry *globals;         /* global functions */
    int global_count;
    const char *timer_metatable;         /* registry name; methods in its __index */
    const gm_api_entry *timer_methods;
    int timer_method_count;
    const char *binding_metatable;
    const gm_api_entry *binding_methods;
    int binding_method_count;
    const char *recognizer_metatable;    /* the object `recognizer()` functions get as their first argument */
    const gm_api_entry *recognizer_methods;
    int recognizer_method_count;
    const char *prelude;                 /* Lua run last, given prelude_args then the module loader */
    size_t prelude_length;
    const char *prelude_name;
    const gm_api_entry *prelude_args;
    int prelude_arg_count;
} gm_api;

/* A field a Lua recognizer attached to its gesture: `type` is LUA_TNUMBER
 * (an integer when `is_integer`), LUA_TSTRING or LUA_TBOOLEAN. */
typedef struct gm_field {
    const char *name;
    int type;
    int is_integer;
    lua_Integer integer;
    lua_Number number;
    const char *string;
    size_t length;
    int boolean;
} gm_field;

/* The fields of a handler's gesture table. Strings may be NULL (field left nil);
 * has_normalized = 0 leaves nx, ny nil. A new field: a member here, one line in
 * gm_push_gesture (Gesture.c) and its key in key_names there, one where
 * ScriptRuntime fills this struct (withGesture). */
typedef struct gm_gesture {
    const char *kind;
    const char *phase;
    const char *direction;
    const char *edge;
    const char *device;
    lua_Integer fingers;
    lua_Integer taps;
    lua_Integer resting;
    lua_Number t, duration, dx, dy, distance, velocity, x, y, nx, ny, scale, rotation;
    int has_normalized;
    const char *shape;          /* g.shape, with g.score when has_score */
    lua_Number score;
    int has_score;
    const gm_field *fields;     /* a Lua recognizer's own fields, after the others */
    int field_count;
    /* g.app = { id, title, pid }: app_id NULL leaves g.app nil; app_pid 0 leaves pid nil. */
    const char *app_id;
    const char *app_title;
    lua_Integer app_pid;
    /* g.modifiers: a table with each of these names set to true (empty when none). */
    const char *const *modifiers;
    int modifier_count;
} gm_gesture;

/* One touch of a frame, for a Lua recognizer. `phase`: 0 began, 1 moved,
 * 2 stationary, 3 ended, 4 cancelled. */
typedef struct gm_touch {
    lua_Integer id;
    lua_Number x, y, vx, vy;
    int phase;
    int resting;
} gm_touch;

/* A frame as a Lua recognizer sees it: written into one reused table. */
typedef struct gm_frame {
    lua_Number t;
    const gm_touch *touches;
    int touch_count;
    lua_Integer fingers;
    int has_size;
    lua_Number width, height;
} gm_frame;

typedef enum gm_request_kind {
    GM_OPEN,          /* sandbox, API and prelude into a new state */
    GM_LOAD_FILE,     /* load `path` (named `name` in messages) and run it */
    GM_LOAD_TEXT,     /* load `text` (chunk name `name`) and run it */
    GM_CALL_REF,      /* call the function at registry `ref` without arguments (timers) */
    GM_CALL_HANDLER,  /* call the handler at `ref` (its field `phase` when it is a table) with the gesture */
    GM_ADOPT_STATE,   /* copy `from`'s global `state` into this state's */
    GM_NEW_OBJECT,    /* a table with metatable `metatable` and field name = `name`, into the registry: `ref` */
    GM_CALL_RECOGNIZER, /* call the function at `ref` with the object at `self_ref`, then `frame` (written
                           into the reused table at `frame_ref`, made when LUA_NOREF) or `time` when
                           `has_time`, or nothing */
} gm_request_kind;

typedef struct gm_request {
    gm_request_kind kind;
    const gm_api *api;
    const char *path;
    int regular_only;           /* GM_LOAD_FILE: refuse a FIFO, a pipe or a device (a reload) */
    const char *name;
    const char *text;
    size_t length;
    int ref;
    const char *phase;          /* NULL: the handler is a function */
    const gm_gesture *gesture;
    lua_Integer step;           /* g.step when non-zero */
    lua_State *from;
    const char *metatable;
    const char *state;          /* GM_CALL_RECOGNIZER: set as the object's `state` before the call */
    int self_ref;
    int frame_ref;              /* in and out */
    const gm_frame *frame;
    lua_Number time;
    int has_time;
    /* results */
    int load_status;            /* LUA_OK, or why the chunk did not load (its message is the error) */
    int skipped;                /* a handler table without a function for this phase */
    int dropped;                /* GM_ADOPT_STATE: values that could not cross */
} gm_request;

/* Runs `request` in one protected call under the limits: a fresh instruction
 * budget and deadline, Lua errors (out of memory included) caught. Returns a
 * Lua status; on failure the error value is on top of the stack (pop it).
 * `limits.stopped` says whether the budget or the clock stopped the call, and
 * `limits.stopped_at` where. */
int gm_door(lua_State *L, gm_lua_limits *limits, gm_request *request);
/* gm_door's answer when called from inside a call, with nothing pushed. */
#define GM_DOOR_REFUSED (-1)

/* The chunk name of the prelude (the rule language written in Lua): messages
 * name the rules' own lines, never its. */
#define GM_PRELUDE_CHUNK "=gesturemap"

/* "file:line" of the nearest Lua function of the rules at or above `level`
 * (1: the caller of a host function), pushed as a string; "" when there is none. */
void gm_push_where(lua_State *L, int level);

/* The host's own structures that rules make grow count against the memory
 * limit too. gm_charge returns 0, charging nothing, when it would pass it. */
int gm_charge(gm_lua_limits *limits, size_t bytes);
void gm_release(gm_lua_limits *limits, size_t bytes);

/* ---- Lua patterns, without Lua ---- */

/* Whether `pattern` matches somewhere in `subject` (as string.find does),
 * within `max_steps` steps: 1 yes, 0 no, -1 a malformed pattern, -2 too many
 * steps. `message` (may be NULL) receives why. */
int gm_pattern_find(const char *subject, size_t subject_length, const char *pattern, size_t pattern_length,
                    long max_steps, char *message, size_t message_size);

/* gm_pattern_find, and the steps it took in *steps (may be NULL; 0 for a
 * malformed pattern): what callers sharing one budget of steps charge. */
int gm_pattern_find_counted(const char *subject, size_t subject_length, const char *pattern, size_t pattern_length,
                            long max_steps, long *steps, char *message, size_t message_size);

/* Sets this matcher's find, match, gmatch and gsub into the table at `table`
 * (the sandbox's string library; tests compare them with Lua's own). */
void gm_install_patterns(lua_State *L, int table);

/* ---- Function-like macros of lua.h, as real functions ---- */
int gm_registryindex(void);
void gm_pop(lua_State *L, int n);
const char *gm_tostring(lua_State *L, int idx, size_t *len);
lua_Number gm_tonumber(lua_State *L, int idx, int *isnum);
lua_Integer gm_tointeger(lua_State *L, int idx, int *isnum);
int gm_ref(lua_State *L);
void gm_unref(lua_State *L, int ref);
void gm_collect(lua_State *L);
void gm_pushlstring(lua_State *L, const char *s, size_t len);
int gm_host_upvalue_index(int i);
/* The globals table, raw: rules may give _G a metatable. */
void gm_push_globals(lua_State *L);

#endif
