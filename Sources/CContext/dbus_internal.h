#ifndef GESTUREMAP_CCONTEXT_DBUS_INTERNAL_H
#define GESTUREMAP_CCONTEXT_DBUS_INTERNAL_H

#include "CContext.h"
#include "loader.h"

#include <dbus/dbus.h>

/* libdbus's entry points, loaded at run time. libdbus only builds and reads
 * messages here: the socket, the authentication and the framing are ours, so
 * that nothing waits on the bus and no message is read whole before its size
 * is known (libdbus's own connection reads any message up to 128 MiB, and drops
 * the connection on one past its cap). */
typedef struct {
    GM_PTR(dbus_error_init);
    GM_PTR(dbus_error_free);
    GM_PTR(dbus_parse_address);
    GM_PTR(dbus_address_entry_get_method);
    GM_PTR(dbus_address_entry_get_value);
    GM_PTR(dbus_address_entries_free);
    GM_PTR(dbus_message_demarshal);
    GM_PTR(dbus_message_demarshal_bytes_needed);
    GM_PTR(dbus_message_marshal);
    GM_PTR(dbus_free);
    GM_PTR(dbus_message_new_method_call);
    GM_PTR(dbus_message_new_method_return);
    GM_PTR(dbus_message_new_error);
    GM_PTR(dbus_message_append_args);
    GM_PTR(dbus_message_set_serial);
    GM_PTR(dbus_message_get_reply_serial);
    GM_PTR(dbus_message_get_type);
    GM_PTR(dbus_message_get_sender);
    GM_PTR(dbus_message_get_signature);
    GM_PTR(dbus_message_get_interface);
    GM_PTR(dbus_message_get_member);
    GM_PTR(dbus_message_get_path);
    GM_PTR(dbus_message_get_no_reply);
    GM_PTR(dbus_message_iter_init);
    GM_PTR(dbus_message_iter_get_basic);
    GM_PTR(dbus_message_iter_next);
    GM_PTR(dbus_message_unref);
} gm_libdbus;

extern gm_libdbus gm_db;
int gm_dbus_load(char *error, size_t size);

/* Caps: a message past GM_DBUS_MAX_MESSAGE is skipped as it streams by, never
 * held; replies stop while GM_DBUS_MAX_OUTGOING bytes wait to be written. */
enum {
    GM_DBUS_MAX_MESSAGE = GM_DBUS_MESSAGE_CAP,
    GM_DBUS_MAX_OUTGOING = 64 * 1024,
    GM_DBUS_READ_CHUNK = 16 * 1024,
    GM_DBUS_MAX_AUTH_LINE = 512,
};

typedef enum { GM_OWNER_ASKING, GM_OWNER_KNOWN, GM_OWNER_NONE } gm_owner_state;

struct gm_dbus {
    int fd; /* -1: detached (fuzzing): nothing is read or written */
    int authenticated;
    int disconnected;
    char reason[256];

    unsigned char *in; /* GM_DBUS_MAX_MESSAGE bytes */
    size_t in_start, in_end;
    uint64_t skip; /* bytes of an oversized message still to pass over */

    unsigned char *out;
    size_t out_len;

    uint32_t serial;
    uint32_t match_serial, shell_serial, request_serial, holder_serial, holder_pid_serial;

    char *name, *path, *interface, *shell;
    gm_owner_state shell_state;
    char shell_owner[256];
    /* The owner the shell's name had when it was first owned: gnome-shell lets
     * any program replace it, so a handover between two live connections
     * does not move the trust. "" once the name has no owner. */
    char shell_trusted[256];

    gm_dbus_update pending; /* one update made by a reply, handed out next */
};

/* The stream side: bytes in, updates out, replies queued. dbus.c feeds it from
 * the socket; the fuzz target feeds it directly. */
gm_dbus *gm_dbus_new(const char *name, const char *path, const char *interface, const char *shell);
void gm_dbus_queue(gm_dbus *d, DBusMessage *m, int is_reply);
void gm_dbus_set_disconnected(gm_dbus *d, const char *reason);
/* Writes what it can without waiting; -1 once the connection is gone. */
int gm_dbus_write_out(gm_dbus *d);

#endif
