/* The Lua panic's last words go to stderr from C, where Swift's console (which
 * writes every terminal control out) cannot be reached: the same rule here. */
#include "CLuaShim.h"

#include <stdio.h>
#include <string.h>

/* The scalar at `s` and its length in bytes; 0 bytes: not well-formed UTF-8. */
static size_t decode(const unsigned char *s, unsigned *scalar) {
    unsigned char c = s[0];
    if (c < 0x80) {
        *scalar = c;
        return 1;
    }
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 ? 2 : 0;
    if (n == 0) return 0;
    unsigned value = c & (0xFF >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        value = (value << 6) | (s[i] & 0x3F);
    }
    /* Overlong forms, surrogates and values past Unicode are no scalars. */
    if ((n == 3 && value < 0x800) || (n == 4 && (value < 0x10000 || value > 0x10FFFF)) || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    *scalar = value;
    return n;
}

/* TerminalText.isUnsafe's list, a newline and a tab excepted. */
static int unsafe(unsigned v) {
    if (v == '\n' || v == '\t') return 0;
    return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029 || v == 0x061C || v == 0x200E || v == 0x200F ||
           (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069);
}

size_t gm_terminal_safe(const char *text, char *out, size_t size) {
    if (size == 0) return 0;
    size_t used = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned scalar = 0;
        size_t n = decode(s, &scalar);
        char piece[16];
        size_t length;
        if (n == 0) {
            /* A byte that is no UTF-8 (a lone 0x9B is an 8-bit CSI): U+FFFD, as Swift decodes it. */
            memcpy(piece, "\xEF\xBF\xBD", 3);
            length = 3;
            n = 1;
        } else if (unsafe(scalar)) {
            length = (size_t)snprintf(piece, sizeof piece, "\\u{%X}", scalar);
        } else {
            memcpy(piece, s, n);
            length = n;
        }
        if (used + length >= size) break;
        memcpy(out + used, piece, length);
        used += length;
        s += n;
    }
    out[used] = 0;
    return used;
}
