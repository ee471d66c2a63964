#define _GNU_SOURCE
#include "loader.h"

#include <link.h>

void gm_context_error(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
}

/* Loaded once per process and never closed: unloading a library whose
 * connections may still be referenced buys nothing. */
void *gm_context_dlopen(const char *const *names, const char *what, const char *package, char *error, size_t size) {
    for (const char *const *name = names; *name; name++) {
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
    }
    gm_context_error(error, size, "%s is not installed (%s could not be loaded); install Debian's %s", what, names[0], package);
    return NULL;
}

const char *gm_context_library_name(void *handle) {
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) return map->l_name;
    return "the library";
}
