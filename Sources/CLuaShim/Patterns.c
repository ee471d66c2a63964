/* Lua patterns (reference manual, section 6.4.1), matched with a step count.
 *
 * Backtracking over patterns such as ("a*"):rep(40) .. "b" takes exponential
 * time inside one C call, where no count hook can reach it. This matcher
 * counts its steps: inside Lua they are charged to the call's instruction
 * budget (and the clock is read as they go), for device names the caller
 * gives a maximum. It replaces string.find, match, gmatch and gsub, and
 * matches `device` options without entering Lua at all.
 *
 * A pattern is checked whole before matching, so a malformed one is an error
 * even where the subject would never reach its bad part. */
#define _GNU_SOURCE
#include "Internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_CAPTURES 32
#define MAX_DEPTH 200
#define OPEN (-1)
#define POSITION (-2)
/* Steps between two charges to the budget (and looks at the clock). */
#define STEPS_PER_CHARGE 1024
/* Pattern steps cost about what a VM instruction does; a byte of plain
 * search (memmem) far less. */
#define BYTES_PER_STEP 16

typedef struct matcher {
    const char *subject;
    const char *subject_end;
    const char *pattern_end;
    int captures;
    struct {
        const char *start;
        ptrdiff_t length;   /* or OPEN, POSITION */
    } capture[MAX_CAPTURES];
    int depth;
    long long steps;
    long long charged;      /* steps already charged to the budget */
    long long max_steps;    /* without Lua: the caller's maximum; 0 with Lua */
    lua_State *L;           /* with Lua: the budget is charged here */
    const char *error;      /* set while unwinding from a failure */
} matcher;

static const char *too_many_steps = "took too many steps";

/* ---- reading the pattern ---- */

/* The end of a set, given what follows its '[': just past the ']' that
 * closes it, or NULL. A ']' first in the set (after any '^') is a member. */
static const char *set_end(const char *p, const char *end) {
    if (p < end && *p == '^') p++;
    int first = 1;
    for (;;) {
        if (p >= end) return NULL;
        if (*p == ']' && !first) return p + 1;
        first = 0;
        if (*p == '%') {
            p++;
            if (p >= end) return NULL;
        }
        p++;
    }
}

/* Just past the single character class starting at `p` (validated). */
static const char *class_end(const char *p, const char *end) {
    if (*p == '%') return p + 2;
    if (*p == '[') return set_end(p + 1, end);
    return p + 1;
}

static int is_quantifier(char c) { return c == '*' || c == '+' || c == '-' || c == '?'; }

/* Why `pattern` is malformed, in `message`; 0 when it is fine. */
static int check_pattern(const char *p, const char *end, char *message, size_t size) {
    int open[MAX_CAPTURES];
    int open_count = 0;
    int count = 0;
    int closed[MAX_CAPTURES];
    int position[MAX_CAPTURES];
    while (p < end) {
        switch (*p) {
        case '(':
            if (count == MAX_CAPTURES) {
                snprintf(message, size, "too many captures (at most %d)", MAX_CAPTURES);
                return 1;
            }
            position[count] = p + 1 < end && p[1] == ')';
            closed[count] = position[count];
            if (position[count]) {
                p += 2;
            } else {
                open[open_count++] = count;
                p++;
            }
            count++;
            continue;
        case ')':
            if (open_count == 0) {
                snprintf(message, size, "malformed pattern (a ')' closes no capture)");
                return 1;
            }
            closed[open[--open_count]] = 1;
            p++;
            continue;
        case '%':
            if (p + 1 >= end) {
                snprintf(message, size, "malformed pattern (ends with '%%')");
                return 1;
            }
            if (p[1] == 'b') {
                if (p + 3 >= end) {
                    snprintf(message, size, "malformed pattern (missing arguments to '%%b')");
                    return 1;
                }
                p += 4;
                continue;
            }
            if (p[1] == 'f') {
                if (p + 2 >= end || p[2] != '[') {
                    snprintf(message, size, "missing '[' after '%%f' in pattern");
                    return 1;
                }
                const char *after = set_end(p + 3, end);
                if (!after) {
                    snprintf(message, size, "malformed pattern (missing ']')");
                    return 1;
                }
                p = after;
                continue;
            }
            if (isdigit((unsigned char)p[1])) {
                int n = p[1] - '1';
                if (n < 0 || n >= count || !closed[n]) {
                    snprintf(message, size, "invalid capture index %%%c in pattern (no capture %c is closed before it)", p[1], p[1]);
                    return 1;
                }
                if (position[n]) {
                    snprintf(message, size, "invalid capture index %%%c in pattern (capture %c is a position)", p[1], p[1]);
                    return 1;
                }
                p += 2;
                continue;
            }
            p += 2;
            break;
        case '[': {
            const char *after = set_end(p + 1, end);
            if (!after) {
                snprintf(message, size, "malformed pattern (missing ']')");
                return 1;
            }
            p = after;
            break;
        }
        default:
            p++;
            break;
        }
        if (p < end && is_quantifier(*p)) p++;
    }
    if (open_count > 0) {
        snprintf(message, size, "unfinished capture (a '(' is never closed)");
        return 1;
    }
    return 0;
}

/* ---- single characters ---- */

static int in_class(unsigned char c, unsigned char class_letter) {
    int yes;
    switch (tolower(class_letter)) {
    case 'a': yes = isalpha(c); break;
    case 'c': yes = iscntrl(c); break;
    case 'd': yes = isdigit(c); break;
    case 'g': yes = isgraph(c); break;
    case 'l': yes = islower(c); break;
    case 'p': yes = ispunct(c); break;
    case 's': yes = isspace(c); break;
    case 'u': yes = isupper(c); break;
    case 'w': yes = isalnum(c); break;
    case 'x': yes = isxdigit(c); break;
    case 'z': yes = c == 0; break;   /* Lua 5.1's class, still understood */
    default: return class_letter == c;
    }
    if (isupper(class_letter)) yes = !yes;
    return yes != 0;
}

/* `p` is just past '[', `close` at its ']'. */
static int in_set(unsigned char c, const char *p, const char *close) {
    int negated = 0;
    if (*p == '^') {
        negated = 1;
        p++;
    }
    while (p < close) {
        if (*p == '%' && p + 1 < close) {
            if (in_class(c, (unsigned char)p[1])) return !negated;
            p += 2;
        } else if (p + 2 < close && p[1] == '-') {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return !negated;
            p += 3;
        } else {
            if ((unsigned char)*p == c) return !negated;
            p++;
        }
    }
    return negated;
}

/* Whether the character at `s` (inside the subject) is in the class [p, ep). */
static int single(const char *s, const char *p, const char *ep) {
    unsigned char c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return in_class(c, (unsigned char)p[1]);
    case '[': return in_set(c, p + 1, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* ---- matching ---- */

/* One step; 0 to carry on, 1 when matching must stop (m->error says why). */
static int step(matcher *m, long long n) {
    if (m->error) return 1;
    m->steps += n;
    if (m->steps - m->charged < STEPS_PER_CHARGE) return 0;
    if (m->L) {
        /* Raises when the budget or the clock has run out. */
        gm_charge_work(m->L, m->steps - m->charged);
    } else if (m->steps > m->max_steps) {
        m->error = too_many_steps;
        return 1;
    }
    m->charged = m->steps;
    return 0;
}

/* What is left to charge when a function is done. */
static void settle(matcher *m) {
    if (m->L && m->steps > m->charged) gm_charge_work(m->L, m->steps - m->charged);
    m->charged = m->steps;
}

static const char *match(matcher *m, const char *s, const char *p);

static const char *with_capture(matcher *m, const char *s, const char *p, ptrdiff_t kind) {
    int n = m->captures++;
    m->capture[n].start = s;
    m->capture[n].length = kind;
    const char *result = match(m, s, p);
    if (!result) m->captures--;
    return result;
}

static const char *closing_capture(matcher *m, const char *s, const char *p) {
    int n = m->captures - 1;
    while (n >= 0 && m->capture[n].length != OPEN) n--;
    if (n < 0) {
        m->error = "malformed pattern (a ')' closes no capture)";
        return NULL;
    }
    m->capture[n].length = s - m->capture[n].start;
    const char *result = match(m, s, p);
    if (!result) m->capture[n].length = OPEN;
    return result;
}

/* %bxy at `s`: just past the balanced run, or NULL. */
static const char *balanced(matcher *m, const char *s, char open, char close) {
    if (s >= m->subject_end || *s != open) return NULL;
    int depth = 1;
    for (s++; s < m->subject_end; s++) {
        if (step(m, 1)) return NULL;
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

/* %1-%9 at `s`: just past the repeated text, or NULL. */
static const char *repeated(matcher *m, const char *s, int n) {
    ptrdiff_t length = m->capture[n].length;
    if (length < 0 || m->subject_end - s < length) return NULL;
    if (step(m, length / BYTES_PER_STEP)) return NULL;
    return memcmp(m->capture[n].start, s, (size_t)length) == 0 ? s + length : NULL;
}

/* `*` and `+`: as many as match, then fewer until the rest matches. */
static const char *longest(matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t count = 0;
    while (s + count < m->subject_end && single(s + count, p, ep)) {
        if (step(m, 1)) return NULL;
        count++;
    }
    for (; count >= 0; count--) {
        const char *result = match(m, s + count, ep + 1);
        if (result || m->error) return result;
    }
    return NULL;
}

/* `-`: as few as let the rest match. */
static const char *shortest(matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *result = match(m, s, ep + 1);
        if (result || m->error) return result;
        if (s < m->subject_end && single(s, p, ep)) s++;
        else return NULL;
    }
}

static const char *match(matcher *m, const char *s, const char *p) {
    if (++m->depth > MAX_DEPTH) {
        m->error = "pattern too complex (nested too deep)";
        m->depth--;
        return NULL;
    }
    const char *result = NULL;
    for (;;) {
        if (step(m, 1)) break;
        if (p == m->pattern_end) {
            result = s;
            break;
        }
        if (*p == '(') {
            if (p + 1 < m->pattern_end && p[1] == ')') result = with_capture(m, s, p + 2, POSITION);
            else result = with_capture(m, s, p + 1, OPEN);
            break;
        }
        if (*p == ')') {
            result = closing_capture(m, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == m->pattern_end) {
            result = s == m->subject_end ? s : NULL;
            break;
        }
        if (*p == '%' && p[1] == 'b') {
            s = balanced(m, s, p[2], p[3]);
            if (!s) break;
            p += 4;
            continue;
        }
        if (*p == '%' && p[1] == 'f') {
            const char *set = p + 3;
            const char *after = set_end(set, m->pattern_end);
            unsigned char before = s > m->subject ? (unsigned char)s[-1] : 0;
            unsigned char here = s < m->subject_end ? (unsigned char)*s : 0;
            if (in_set(before, set, after - 1) || !in_set(here, set, after - 1)) break;
            p = after;
            continue;
        }
        if (*p == '%' && isdigit((unsigned char)p[1])) {
            s = repeated(m, s, p[1] - '1');
            if (!s) break;
            p += 2;
            continue;
        }
        const char *ep = class_end(p, m->pattern_end);
        int matches = s < m->subject_end && single(s, p, ep);
        char quantifier = ep < m->pattern_end ? *ep : 0;
        if (quantifier == '?') {
            if (matches) {
                const char *r = match(m, s + 1, ep + 1);
                if (r || m->error) {
                    result = r;
                    break;
                }
            }
            p = ep + 1;
            continue;
        }
        if (quantifier == '+') {
            if (matches) result = longest(m, s + 1, p, ep);
            break;
        }
        if (quantifier == '*') {
            result = longest(m, s, p, ep);
            break;
        }
        if (quantifier == '-') {
            result = shortest(m, s, p, ep);
            break;
        }
        if (!matches) break;
        s++;
        p = ep;
    }
    m->depth--;
    return result;
}

static void start(matcher *m, const char *subject, size_t length, const char *pattern_end, lua_State *L, long long max_steps) {
    m->subject = subject;
    m->subject_end = subject + length;
    m->pattern_end = pattern_end;
    m->captures = 0;
    m->depth = 0;
    m->steps = 0;
    m->charged = 0;
    m->max_steps = max_steps;
    m->L = L;
    m->error = NULL;
}

/* The first match at or after `from`: its start in *begin, its end returned. */
static const char *search(matcher *m, const char *from, const char *p, int anchored, const char **begin) {
    for (const char *s = from; s <= m->subject_end; s++) {
        m->captures = 0;
        const char *e = match(m, s, p);
        if (e) {
            *begin = s;
            return e;
        }
        if (m->error || anchored) return NULL;
    }
    return NULL;
}

static int has_specials(const char *p, size_t length) {
    for (size_t i = 0; i < length; i++) {
        if (strchr("^$*+?.([%-", p[i]) && p[i] != 0) return 1;
    }
    return 0;
}

int gm_pattern_find(const char *subject, size_t subject_length, const char *pattern, size_t pattern_length,
                    long max_steps, char *message, size_t message_size) {
    return gm_pattern_find_counted(subject, subject_length, pattern, pattern_length, max_steps, NULL, message, message_size);
}

int gm_pattern_find_counted(const char *subject, size_t subject_length, const char *pattern, size_t pattern_length,
                            long max_steps, long *steps, char *message, size_t message_size) {
    char scratch[160];
    if (!message) {
        message = scratch;
        message_size = sizeof scratch;
    }
    message[0] = 0;
    const char *p = pattern;
    const char *end = pattern + pattern_length;
    int anchored = p < end && *p == '^';
    if (anchored) p++;
    /* Reading the pattern through is work too, however soon matching ends. */
    long checked = (long)(pattern_length / BYTES_PER_STEP) + 1;
    if (steps) *steps = checked;
    if (check_pattern(p, end, message, message_size)) return -1;
    matcher m;
    start(&m, subject, subject_length, end, NULL, max_steps);
    const char *begin;
    const char *e = search(&m, subject, p, anchored, &begin);
    if (steps) *steps = checked + (long)m.steps;
    if (m.error) {
        snprintf(message, message_size, "%s", m.error);
        return m.error == too_many_steps ? -2 : -1;
    }
    return e != NULL;
}

/* ---- the string library's functions ---- */

static void raise_if_failed(lua_State *L, matcher *m) {
    if (m->error) luaL_error(L, "%s", m->error);
}

static void checked_pattern(lua_State *L, const char *p, const char *end) {
    char message[200];
    if (check_pattern(p, end, message, sizeof message)) luaL_error(L, "%s", message);
}

/* string.find's init: 1-based, negative from the end, as an offset. */
static size_t start_offset(lua_Integer init, size_t length) {
    if (init > 0) return (size_t)init - 1;
    if (init == 0 || (size_t)-init > length) return 0;
    return length - (size_t)-init;
}

static void push_capture(lua_State *L, matcher *m, int n, const char *s, const char *e) {
    if (n >= m->captures) {
        if (n != 0) luaL_error(L, "invalid capture index %%%d", n + 1);
        lua_pushlstring(L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t length = m->capture[n].length;
    if (length == POSITION) lua_pushinteger(L, (lua_Integer)(m->capture[n].start - m->subject) + 1);
    else if (length == OPEN) luaL_error(L, "unfinished capture");
    else lua_pushlstring(L, m->capture[n].start, (size_t)length);
}

/* The captures, or the whole match when there are none and `whole` is set. */
static int push_captures(lua_State *L, matcher *m, const char *s, const char *e, int whole) {
    int n = m->captures == 0 && whole ? 1 : m->captures;
    luaL_checkstack(L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(L, m, i, s, e);
    return n;
}

static int find_or_match(lua_State *L, int find) {
    size_t length, pattern_length;
    const char *s = luaL_checklstring(L, 1, &length);
    const char *pattern = luaL_checklstring(L, 2, &pattern_length);
    size_t init = start_offset(luaL_optinteger(L, 3, 1), length);
    if (init > length) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(pattern, pattern_length))) {
        gm_charge_work(L, (long long)((length - init) / BYTES_PER_STEP + 1));
        const char *at = pattern_length == 0 ? s + init : memmem(s + init, length - init, pattern, pattern_length);
        if (!at) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(at - s) + 1);
        lua_pushinteger(L, (lua_Integer)(at - s) + (lua_Integer)pattern_length);
        return 2;
    }
    const char *p = pattern;
    const char *end = pattern + pattern_length;
    int anchored = p < end && *p == '^';
    if (anchored) p++;
    checked_pattern(L, p, end);
    matcher m;
    start(&m, s, length, end, L, 0);
    const char *begin;
    const char *e = search(&m, s + init, p, anchored, &begin);
    raise_if_failed(L, &m);
    settle(&m);
    if (!e) {
        luaL_pushfail(L);
        return 1;
    }
    if (!find) return push_captures(L, &m, begin, e, 1);
    lua_pushinteger(L, (lua_Integer)(begin - s) + 1);
    lua_pushinteger(L, (lua_Integer)(e - s));
    return push_captures(L, &m, NULL, NULL, 0) + 2;
}

static int lib_find(lua_State *L) { return find_or_match(L, 1); }
static int lib_match(lua_State *L) { return find_or_match(L, 0); }

/* gmatch's iterator: upvalues subject, pattern, where to look next, where the
 * last match ended (-1: none yet), all as offsets. */
static int gmatch_next(lua_State *L) {
    size_t length, pattern_length;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &length);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &pattern_length);
    lua_Integer from = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
    matcher m;
    start(&m, s, length, p + pattern_length, L, 0);
    for (const char *at = s + from; at <= m.subject_end; at++) {
        m.captures = 0;
        const char *e = match(&m, at, p);
        raise_if_failed(L, &m);
        if (e && (e - s) != last) {
            lua_pushinteger(L, (lua_Integer)(e - s));
            lua_pushvalue(L, -1);
            lua_replace(L, lua_upvalueindex(3));
            lua_replace(L, lua_upvalueindex(4));
            settle(&m);
            return push_captures(L, &m, at, e, 1);
        }
    }
    settle(&m);
    return 0;
}

static int lib_gmatch(lua_State *L) {
    size_t length, pattern_length;
    luaL_checklstring(L, 1, &length);
    const char *p = luaL_checklstring(L, 2, &pattern_length);
    size_t init = start_offset(luaL_optinteger(L, 3, 1), length);
    if (init > length) init = length + 1;
    /* No anchor here: '^' would stop the iteration, so it is an ordinary character. */
    checked_pattern(L, p, p + pattern_length);
    lua_settop(L, 2);
    lua_pushinteger(L, (lua_Integer)init);
    lua_pushinteger(L, -1);
    lua_pushcclosure(L, gmatch_next, 4);
    return 1;
}

/* A replacement string: %0 the match, %1-%9 captures, %% a percent sign. */
static void add_replacement(lua_State *L, luaL_Buffer *b, matcher *m, const char *s, const char *e) {
    size_t length;
    const char *r = lua_tolstring(L, 3, &length);
    for (size_t i = 0; i < length; i++) {
        if (r[i] != '%') {
            luaL_addchar(b, r[i]);
            continue;
        }
        i++;
        if (i < length && r[i] == '%') {
            luaL_addchar(b, '%');
        } else if (i < length && r[i] == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (i < length && isdigit((unsigned char)r[i])) {
            push_capture(L, m, r[i] - '1', s, e);
            luaL_tolstring(L, -1, NULL);
            lua_remove(L, -2);
            luaL_addvalue(b);
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
    }
}

static void add_value(lua_State *L, luaL_Buffer *b, matcher *m, const char *s, const char *e, int replacement_type) {
    if (replacement_type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(L, m, s, e, 1);
        lua_call(L, n, 1);
    } else if (replacement_type == LUA_TTABLE) {
        push_capture(L, m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_replacement(L, b, m, s, e);
        return;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
    } else if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    } else {
        luaL_addvalue(b);
    }
}

static int lib_gsub(lua_State *L) {
    size_t length, pattern_length;
    const char *s = luaL_checklstring(L, 1, &length);
    const char *pattern = luaL_checklstring(L, 2, &pattern_length);
    int replacement_type = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)length + 1);
    luaL_argexpected(L, replacement_type == LUA_TNUMBER || replacement_type == LUA_TSTRING ||
                        replacement_type == LUA_TFUNCTION || replacement_type == LUA_TTABLE,
                     3, "string/function/table");
    const char *p = pattern;
    const char *end = pattern + pattern_length;
    int anchored = p < end && *p == '^';
    if (anchored) p++;
    checked_pattern(L, p, end);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    matcher m;
    start(&m, s, length, end, L, 0);
    const char *at = s;
    const char *last = NULL;
    lua_Integer count = 0;
    while (count < max) {
        m.captures = 0;
        const char *e = match(&m, at, p);
        raise_if_failed(L, &m);
        if (e && e != last) {
            count++;
            add_value(L, &b, &m, at, e, replacement_type);
            at = last = e;
        } else if (at < m.subject_end) {
            luaL_addchar(&b, *at++);
        } else {
            break;
        }
        if (anchored) break;
    }
    luaL_addlstring(&b, at, (size_t)(m.subject_end - at));
    luaL_pushresult(&b);
    lua_pushinteger(L, count);
    settle(&m);
    return 2;
}

void gm_install_patterns(lua_State *L, int table) {
    static const luaL_Reg functions[] = {
        {"find", lib_find},
        {"match", lib_match},
        {"gmatch", lib_gmatch},
        {"gsub", lib_gsub},
        {NULL, NULL},
    };
    table = lua_absindex(L, table);
    for (const luaL_Reg *f = functions; f->name; f++) {
        lua_pushcfunction(L, f->func);
        lua_setfield(L, table, f->name);
    }
}

void gm_open_patterns(lua_State *L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    gm_install_patterns(L, -1);
    lua_pop(L, 1);
}
