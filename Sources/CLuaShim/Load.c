/* Rules files and modules, read in pieces straight into Lua's parser: a file
 * never sits whole in memory outside the limit, and one bigger than the limit
 * is refused before it is read. */
#include "Internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

typedef struct reader {
    FILE *file;
    char buffer[16384];
} reader;

static const char *read_piece(lua_State *L, void *data, size_t *size) {
    (void)L;
    reader *r = (reader *)data;
    *size = fread(r->buffer, 1, sizeof r->buffer, r->file);
    return *size > 0 ? r->buffer : NULL;
}

/* Opened without waiting: a FIFO with no writer would block open() itself.
 * A file the user named at start may be a pipe (`--rules <(...)`), read as
 * it comes; `regular_only` (a reload, which nobody is there to feed) refuses
 * anything but a regular file. */
int gm_load_stream(lua_State *L, const char *path, const char *display_name, int regular_only) {
    reader r;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        lua_pushfstring(L, "cannot open %s: %s", display_name, strerror(errno));
        return LUA_ERRFILE;
    }
    struct stat info;
    if (fstat(fd, &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            close(fd);
            lua_pushfstring(L, "cannot read %s: it is a directory", display_name);
            return LUA_ERRFILE;
        }
        if (regular_only && !S_ISREG(info.st_mode)) {
            close(fd);
            lua_pushfstring(L, "cannot read %s: it is no longer a regular file (a FIFO, a socket or a device); "
                               "rules are reloaded only from regular files",
                            display_name);
            return LUA_ERRFILE;
        }
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    r.file = fdopen(fd, "rb");
    if (!r.file) {
        int code = errno;
        close(fd);
        lua_pushfstring(L, "cannot read %s: %s", display_name, strerror(code));
        return LUA_ERRFILE;
    }
    if (fstat(fileno(r.file), &info) == 0) {
        gm_lua_limits *limits = gm_limits_of(L);
        if (limits && limits->memory_limit && S_ISREG(info.st_mode) && (size_t)info.st_size > limits->memory_limit) {
            fclose(r.file);
            lua_pushfstring(L, "%s is %I bytes, more than the Lua memory limit (%I bytes) could ever hold; "
                               "a rules file is a few kilobytes of Lua",
                            display_name, (lua_Integer)info.st_size, (lua_Integer)limits->memory_limit);
            return LUA_ERRFILE;
        }
    }
    lua_pushfstring(L, "@%s", display_name);
    int status = lua_load(L, read_piece, &r, lua_tostring(L, -1), "t");
    lua_remove(L, -2);
    int failed = ferror(r.file);
    int code = errno;
    fclose(r.file);
    if (failed) {
        lua_pop(L, 1);
        lua_pushfstring(L, "cannot read %s: %s", display_name, strerror(code));
        return LUA_ERRFILE;
    }
    return status;
}

/* The prelude's require calls this with a path the host has checked. */
int gm_lib_load_module(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    const char *name = luaL_checkstring(L, 2);
    if (gm_load_stream(L, path, name, 1) != LUA_OK) return lua_error(L);
    return 1;
}
