#ifndef GESTUREMAP_CCONTEXT_LOADER_H
#define GESTUREMAP_CCONTEXT_LOADER_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A pointer to `symbol`, typed from its declaration in the library's header. */
#define GM_PTR(symbol) __typeof__(&symbol) symbol

/* Fills `table.symbol` from `handle`; on a miss, writes which one and returns 0. */
#define GM_LOAD(handle, table, symbol, error, size)                                          \
    (((table).symbol = (__typeof__((table).symbol))dlsym((handle), #symbol)) != NULL ||      \
     (gm_context_error((error), (size), "%s has no %s", gm_context_library_name(handle), #symbol), 0))

/* dlopen()s the first of `names` that loads; NULL and a message when none does. */
void *gm_context_dlopen(const char *const *names, const char *what, const char *package, char *error, size_t size);
const char *gm_context_library_name(void *handle);
void gm_context_error(char *error, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
