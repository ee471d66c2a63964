/* The session bus connection: a non-blocking UNIX socket of our own. Opening
 * sends everything gesturemap will ask at once (authentication, Hello, the
 * watch on the shell's name, RequestName) and waits for none of it; the
 * answers arrive through the same reads as the calls. */
#define _GNU_SOURCE
#include "dbus_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

gm_libdbus gm_db;
static int db_loaded;

int gm_dbus_load(char *error, size_t size) {
    if (db_loaded) return 1;
    static const char *const names[] = {"libdbus-1.so.3", "libdbus-1.so", NULL};
    void *lib = gm_context_dlopen(names, "libdbus (D-Bus)", "libdbus-1-3", error, size);
    if (!lib) return 0;
#define L(symbol) GM_LOAD(lib, gm_db, symbol, error, size)
    if (!(L(dbus_error_init) && L(dbus_error_free) && L(dbus_parse_address) && L(dbus_address_entry_get_method) &&
          L(dbus_address_entry_get_value) && L(dbus_address_entries_free) && L(dbus_message_demarshal) &&
          L(dbus_message_demarshal_bytes_needed) && L(dbus_message_marshal) && L(dbus_free) &&
          L(dbus_message_new_method_call) && L(dbus_message_new_method_return) && L(dbus_message_new_error) &&
          L(dbus_message_append_args) && L(dbus_message_set_serial) &&
          L(dbus_message_get_reply_serial) && L(dbus_message_get_type) && L(dbus_message_get_sender) &&
          L(dbus_message_get_signature) && L(dbus_message_get_interface) && L(dbus_message_get_member) &&
          L(dbus_message_get_path) && L(dbus_message_get_no_reply) &&
          L(dbus_message_iter_init) && L(dbus_message_iter_get_basic) &&
          L(dbus_message_iter_next) && L(dbus_message_unref)))
        return 0;
#undef L
    db_loaded = 1;
    return 1;
}

/* A unix:path= or unix:abstract= entry of the address; -1 and a message when
 * none connects. */
static int connect_address(const char *address, char *error, size_t size) {
    DBusAddressEntry **entries = NULL;
    int count = 0;
    DBusError e;
    gm_db.dbus_error_init(&e);
    if (!gm_db.dbus_parse_address(address, &entries, &count, &e)) {
        gm_context_error(error, size, "cannot connect to the session bus %s: %s", address, e.message ? e.message : "not a D-Bus address");
        gm_db.dbus_error_free(&e);
        return -1;
    }
    gm_context_error(error, size, "cannot connect to the session bus %s: no unix:path= or unix:abstract= in it", address);
    int fd = -1;
    for (int i = 0; i < count && fd < 0; i++) {
        if (strcmp(gm_db.dbus_address_entry_get_method(entries[i]), "unix") != 0) continue;
        const char *path = gm_db.dbus_address_entry_get_value(entries[i], "path");
        const char *abstract = gm_db.dbus_address_entry_get_value(entries[i], "abstract");
        const char *where = path ? path : abstract;
        if (!where) continue;
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        size_t length = strlen(where);
        size_t offset = path ? 0 : 1; /* an abstract name starts with a NUL byte */
        if (length + offset >= sizeof sa.sun_path) {
            gm_context_error(error, size, "cannot connect to the session bus %s: the socket name is too long", address);
            continue;
        }
        memcpy(sa.sun_path + offset, where, length);
        socklen_t sa_size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + length + (path ? 1 : 0));
        int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (s < 0 || connect(s, (struct sockaddr *)&sa, sa_size) != 0) {
            gm_context_error(error, size, "cannot connect to the session bus %s: %s", address, strerror(errno));
            if (s >= 0) close(s);
            continue;
        }
        fd = s;
    }
    gm_db.dbus_address_entries_free(entries);
    return fd;
}

int gm_dbus_write_out(gm_dbus *d) {
    size_t sent = 0;
    while (sent < d->out_len) {
        ssize_t n = send(d->fd, d->out + sent, d->out_len - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        char why[200];
        snprintf(why, sizeof why, "cannot write to the session bus: %s", n < 0 ? strerror(errno) : "closed");
        gm_dbus_set_disconnected(d, why);
        return -1;
    }
    memmove(d->out, d->out + sent, d->out_len - sent);
    d->out_len -= sent;
    return 0;
}

/* The authentication (EXTERNAL: the bus knows our uid from the socket) and the
 * requests, all queued at once. No NEGOTIATE_UNIX_FD: the bus then refuses to
 * pass us descriptors, and tells their sender so. */
static void queue_greeting(gm_dbus *d) {
    char uid[32], line[128];
    int n = snprintf(uid, sizeof uid, "%u", (unsigned)getuid());
    int at = snprintf(line, sizeof line, "%cAUTH EXTERNAL ", 0);
    for (int i = 0; i < n; i++) at += snprintf(line + at, sizeof line - (size_t)at, "%02x", (unsigned char)uid[i]);
    at += snprintf(line + at, sizeof line - (size_t)at, "\r\nBEGIN\r\n");
    memcpy(d->out, line, (size_t)at);
    d->out_len = (size_t)at;

    /* Hello's answer (our unique name) is not needed: nothing asks for it. */
    gm_dbus_queue(d, gm_db.dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "Hello"), 0);
    /* The watch and the question come before the name is requested, so their
     * answers are read before any call the shell makes once it sees the name. */
    char rule[400];
    snprintf(rule, sizeof rule, "type='signal',sender='%s',interface='%s',member='NameOwnerChanged',arg0='%s'",
             DBUS_SERVICE_DBUS, DBUS_INTERFACE_DBUS, d->shell);
    DBusMessage *m = gm_db.dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "AddMatch");
    const char *text = rule;
    if (m) gm_db.dbus_message_append_args(m, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    gm_dbus_queue(d, m, 0);
    d->match_serial = d->serial;
    m = gm_db.dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "GetNameOwner");
    text = d->shell;
    if (m) gm_db.dbus_message_append_args(m, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    gm_dbus_queue(d, m, 0);
    d->shell_serial = d->serial;
    /* No ALLOW_REPLACEMENT, no REPLACE_EXISTING: whoever holds the name keeps
     * it until it lets go, and the other waits in the queue. */
    m = gm_db.dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "RequestName");
    text = d->name;
    dbus_uint32_t flags = 0;
    if (m) gm_db.dbus_message_append_args(m, DBUS_TYPE_STRING, &text, DBUS_TYPE_UINT32, &flags, DBUS_TYPE_INVALID);
    gm_dbus_queue(d, m, 0);
    d->request_serial = d->serial;
}

gm_dbus *gm_dbus_open(const char *address, const char *name, const char *path, const char *interface,
                      const char *shell, char *error, size_t size) {
    if (!gm_dbus_load(error, size)) return NULL;
    char fallback[512];
    if (!address) address = getenv("DBUS_SESSION_BUS_ADDRESS");
    if (!address || !*address) {
        /* systemd's user bus; never autolaunch a bus of our own. */
        const char *runtime = getenv("XDG_RUNTIME_DIR");
        if (!runtime) {
            gm_context_error(error, size, "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set");
            return NULL;
        }
        snprintf(fallback, sizeof fallback, "unix:path=%s/bus", runtime);
        address = fallback;
    }
    int fd = connect_address(address, error, size);
    if (fd < 0) return NULL;
    gm_dbus *d = gm_dbus_new(name, path, interface, shell);
    if (!d) {
        close(fd);
        gm_context_error(error, size, "out of memory");
        return NULL;
    }
    d->fd = fd;
    queue_greeting(d);
    if (gm_dbus_write_out(d) < 0) {
        gm_context_error(error, size, "cannot connect to the session bus %s: %s", address, d->reason);
        gm_dbus_close(d);
        return NULL;
    }
    return d;
}

gm_dbus *gm_dbus_open_detached(const char *name, const char *path, const char *interface, const char *shell,
                               char *error, size_t size) {
    if (!gm_dbus_load(error, size)) return NULL;
    gm_dbus *d = gm_dbus_new(name, path, interface, shell);
    if (!d) return NULL;
    /* The same requests, with the same serials (Hello 1, AddMatch 2,
     * GetNameOwner 3, RequestName 4), so answers to them can be fed. */
    queue_greeting(d);
    d->out_len = 0;
    return d;
}

int gm_dbus_fd(const gm_dbus *d) { return d->fd; }

/* Descriptors never come (no NEGOTIATE_UNIX_FD), but any that did are closed
 * here rather than left open in this process. */
static void close_passed(struct msghdr *msg) {
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *fds = (int *)CMSG_DATA(c);
        for (size_t i = 0; i < count; i++) close(fds[i]);
    }
}

long gm_dbus_write_pending(gm_dbus *d) {
    if (d->disconnected || d->fd < 0) return d->disconnected ? -1 : 0;
    if (d->out_len > 0 && gm_dbus_write_out(d) < 0) return -1;
    return (long)d->out_len;
}

int gm_dbus_read(gm_dbus *d) {
    if (d->disconnected || d->fd < 0) return d->disconnected ? -1 : 0;
    if (d->out_len > 0 && gm_dbus_write_out(d) < 0) return -1;
    gm_dbus_feed(d, "", 0);
    size_t room = GM_DBUS_MAX_MESSAGE - d->in_end;
    if (room > GM_DBUS_READ_CHUNK) room = GM_DBUS_READ_CHUNK;
    if (room == 0) return 0; /* gm_dbus_next makes room */
    union {
        char bytes[CMSG_SPACE(sizeof(int) * 16)];
        struct cmsghdr align;
    } control;
    struct iovec io = {.iov_base = d->in + d->in_end, .iov_len = room};
    struct msghdr msg = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t n;
    do n = recvmsg(d->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n > 0) close_passed(&msg);
    if (n == 0) {
        gm_dbus_set_disconnected(d, "the session bus closed the connection");
        return -1;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        char why[200];
        snprintf(why, sizeof why, "cannot read from the session bus: %s", strerror(errno));
        gm_dbus_set_disconnected(d, why);
        return -1;
    }
    d->in_end += (size_t)n;
    return 0;
}
