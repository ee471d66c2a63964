/* The budget no rule escapes: memory, instructions and the clock. */
#include "Internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

gm_lua_limits *gm_limits_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (gm_lua_limits *)ud;
}

long long gm_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

long long gm_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The time limit counts the CPU time of the engine's thread, not the wall
 * clock: on a loaded machine (or behind a slow stdout) a handler that does
 * little would otherwise be stopped for time it never used. The monotonic
 * clock, cheap to read, says when the CPU time could first have run out:
 * CPU time never passes faster than it. */
void gm_start_clock(gm_lua_limits *limits) {
    long long now = gm_now_ns();
    limits->window_start_ns = now;
    if (limits->time_limit_ns <= 0) {
        limits->deadline_ns = 0;
        return;
    }
    /* A reading up to 10 ms old makes the call look up to 10 ms older: never
     * more lenient, and a system call per 10 ms instead of per call. */
    if (now - limits->cpu_sampled_at_ns >= 10000000LL || limits->cpu_sampled_at_ns == 0) {
        limits->cpu_sample_ns = gm_thread_cpu_ns();
        limits->cpu_sampled_at_ns = now;
    }
    limits->call_cpu_ns = limits->cpu_sample_ns;
    limits->deadline_ns = now + limits->time_limit_ns;
}

/* Whether the call has used its CPU time, once the monotonic clock says it may have. */
static int out_of_time(gm_lua_limits *limits, long long now) {
    if (!limits->deadline_ns || now < limits->deadline_ns) return 0;
    long long used = gm_thread_cpu_ns() - limits->call_cpu_ns;
    if (used >= limits->time_limit_ns) return 1;
    limits->deadline_ns = now + (limits->time_limit_ns - used);
    return 0;
}

/* What glibc's malloc really holds for a block of `n` bytes: a size word,
 * 16-byte alignment and a 32-byte minimum; big blocks are whole pages of
 * their own. Counting requested bytes alone lets small objects take half
 * again as much as the limit says. */
static size_t footprint(size_t n) {
    if (n == 0) return 0;
    if (n >= 128 * 1024) return (n + 16 + 4095) & ~(size_t)4095;
    size_t chunk = (n + 8 + 15) & ~(size_t)15;
    return chunk < 32 ? 32 : chunk;
}

static void count_in(gm_lua_limits *limits, size_t bytes) {
    limits->memory_used += bytes;
    if (limits->memory_used > limits->memory_peak) limits->memory_peak = limits->memory_used;
}

void *gm_allocate(void *ud, void *ptr, size_t osize, size_t nsize) {
    gm_lua_limits *limits = (gm_lua_limits *)ud;
    size_t old = ptr ? footprint(osize) : 0;
    if (nsize == 0) {
        free(ptr);
        limits->memory_used -= old;
        return NULL;
    }
    size_t fresh = footprint(nsize);
    if (fresh > old && limits->in_host == 0 && limits->in_call) {
        /* Big allocations come with C work in proportion (string.rep, table.concat):
         * a cheap place to notice the clock. */
        limits->allocated_since_check += fresh - old;
        if (limits->allocated_since_check >= GM_BYTES_BETWEEN_CLOCK_READS) {
            limits->allocated_since_check = 0;
            gm_should_stop(limits);
        }
        if (limits->stopped) {
            limits->memory_refused = 1;
            return NULL;
        }
    }
    if (limits->memory_limit && fresh > old && limits->in_host == 0 &&
        limits->memory_used - old + fresh > limits->memory_limit) {
        limits->memory_refused = 1;
        /* Lua collects and asks again after a refusal: near the cap that can be
         * every allocation, so the clock is read here too. */
        if (limits->in_call) gm_should_stop(limits);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    limits->memory_used -= old;
    count_in(limits, fresh);
    return p;
}

int gm_charge(gm_lua_limits *limits, size_t bytes) {
    if (limits->memory_limit && limits->memory_used + bytes > limits->memory_limit) return 0;
    count_in(limits, bytes);
    return 1;
}

void gm_release(gm_lua_limits *limits, size_t bytes) {
    limits->memory_used = bytes > limits->memory_used ? 0 : limits->memory_used - bytes;
}

int gm_should_stop(gm_lua_limits *limits) {
    if (limits->stopped) return 1;
    if (!limits->in_call) return 0;
    if (limits->instruction_budget > 0 && limits->instructions_left <= 0) {
        limits->stopped = GM_STOPPED_INSTRUCTIONS;
    } else if (limits->deadline_ns && out_of_time(limits, gm_now_ns())) {
        limits->stopped = GM_STOPPED_TIME;
    }
    return limits->stopped != GM_RUNNING;
}

/* "file:line: " of the nearest Lua function of the rules at or above
 * `level`: a host function called through pcall, or a handler that is a host
 * function itself, still gets the line of the Lua code that led to it, and a
 * stop inside the prelude (require, log) the line that called it. */
void gm_where(lua_State *L, int level, char *out, size_t size) {
    lua_Debug ar;
    out[0] = 0;
    for (int n = level; n < level + 50 && lua_getstack(L, n, &ar); n++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        if (ar.currentline > 0 && strcmp(ar.source, GM_PRELUDE_CHUNK) != 0) {
            snprintf(out, size, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
}

void gm_push_where(lua_State *L, int level) {
    char where[LUA_IDSIZE + 32];
    gm_where(L, level, where, sizeof where);
    lua_pushstring(L, where);
}

int gm_raise_stop(lua_State *L, gm_lua_limits *limits, int level) {
    if (limits->stopped_at[0] == 0) {
        char where[LUA_IDSIZE + 32];
        gm_where(L, level, where, sizeof where);
        snprintf(limits->stopped_at, sizeof limits->stopped_at, "%s%s", where,
                 limits->stopped == GM_STOPPED_TIME ? "time limit exceeded" : "instruction limit exceeded");
    }
    /* From now on this thread raises at every instruction, so no pcall, xpcall,
     * coroutine or __close inside the rule can carry on past the stop. */
    lua_sethook(L, gm_count_hook, LUA_MASKCOUNT, 1);
    lua_pushstring(L, limits->stopped_at);
    return lua_error(L);
}

void gm_charge_work(lua_State *L, long long cost) {
    gm_lua_limits *limits = gm_limits_of(L);
    if (!limits || !limits->in_call) return;
    if (limits->instruction_budget > 0) {
        /* Costs come from rule-controlled sizes: never overflow. */
        if (cost < 0 || cost >= limits->instructions_left) limits->instructions_left = 0;
        else limits->instructions_left -= cost;
    }
    if (gm_should_stop(limits)) gm_raise_stop(L, limits, 1);
}

void gm_count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    gm_lua_limits *limits = gm_limits_of(L);
    if (!limits || !limits->in_call) return;
    /* Lua instructions are running, so no host function is: a host function
     * that an error left by longjmp cannot keep allocations unlimited. */
    limits->in_host = 0;
    int window = lua_gethookcount(L);
    if (limits->stopped) gm_raise_stop(L, limits, 0);
    if (limits->instruction_budget > 0) limits->instructions_left -= window;
    if (limits->instruction_budget > 0 && limits->instructions_left <= 0) {
        limits->stopped = GM_STOPPED_INSTRUCTIONS;
        gm_raise_stop(L, limits, 0);
    }
    int wanted = GM_WINDOW;
    if (limits->deadline_ns) {
        long long now = gm_now_ns();
        if (out_of_time(limits, now)) {
            limits->stopped = GM_STOPPED_TIME;
            gm_raise_stop(L, limits, 0);
        }
        /* Some instructions take long (comparing two long strings): after a slow
         * window, look again sooner, so the clock is not overrun by much. */
        if (now - limits->window_start_ns > GM_SLOW_WINDOW_NS) wanted = GM_SHORT_WINDOW;
        limits->window_start_ns = now;
    }
    if (wanted != window) lua_sethook(L, gm_count_hook, LUA_MASKCOUNT, wanted);
}
