/* Writes seeds for the dbus fuzz target: what the bus sends gesturemap, as
 * bytes, built and marshalled by libdbus. Each seed is one control byte (the
 * chunk size), the authentication's answer, then messages.
 * usage: seeds DIRECTORY */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

static const char *const shell = ":1.1";
static FILE *out;
static dbus_uint32_t next_serial = 100;

static void emit(DBusMessage *m, const char *sender) {
    if (sender) dbus_message_set_sender(m, sender);
    dbus_message_set_serial(m, next_serial++);
    char *bytes = NULL;
    int length = 0;
    if (dbus_message_marshal(m, &bytes, &length)) fwrite(bytes, 1, (size_t)length, out);
    dbus_free(bytes);
    dbus_message_unref(m);
}

static DBusMessage *reply_to(dbus_uint32_t serial, int error) {
    DBusMessage *m = dbus_message_new(error ? DBUS_MESSAGE_TYPE_ERROR : DBUS_MESSAGE_TYPE_METHOD_RETURN);
    dbus_message_set_reply_serial(m, serial);
    if (error) dbus_message_set_error_name(m, DBUS_ERROR_NAME_HAS_NO_OWNER);
    return m;
}

static void answer_string(dbus_uint32_t serial, const char *text) {
    DBusMessage *m = reply_to(serial, 0);
    dbus_message_append_args(m, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    emit(m, DBUS_SERVICE_DBUS);
}

static void answer_u32(dbus_uint32_t serial, dbus_uint32_t value) {
    DBusMessage *m = reply_to(serial, 0);
    dbus_message_append_args(m, DBUS_TYPE_UINT32, &value, DBUS_TYPE_INVALID);
    emit(m, DBUS_SERVICE_DBUS);
}

static void bus_signal(const char *member, const char *a, const char *b, const char *c) {
    DBusMessage *m = dbus_message_new_signal(DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, member);
    if (b) dbus_message_append_args(m, DBUS_TYPE_STRING, &a, DBUS_TYPE_STRING, &b, DBUS_TYPE_STRING, &c, DBUS_TYPE_INVALID);
    else dbus_message_append_args(m, DBUS_TYPE_STRING, &a, DBUS_TYPE_INVALID);
    emit(m, DBUS_SERVICE_DBUS);
}

static DBusMessage *call(const char *member) {
    return dbus_message_new_method_call("org.gesturemap.Focus", "/org/gesturemap/Focus", "org.gesturemap.Focus1", member);
}

static void focus(const char *sender, const char *id, const char *title, int type, const void *pid) {
    DBusMessage *m = call("FocusChanged");
    dbus_message_append_args(m, DBUS_TYPE_STRING, &id, DBUS_TYPE_STRING, &title, DBUS_TYPE_INVALID);
    if (type) dbus_message_append_args(m, type, pid, DBUS_TYPE_INVALID);
    emit(m, sender);
}

static void windows(const char *sender, const char *json) {
    DBusMessage *m = call("WindowsChanged");
    dbus_message_append_args(m, DBUS_TYPE_STRING, &json, DBUS_TYPE_INVALID);
    emit(m, sender);
}

/* The bus's answers to the greeting: Hello, then the shell's owner, then the name. */
static void greeting(dbus_uint32_t request_result) {
    fputs("OK 0123456789abcdef0123456789abcdef\r\n", out);
    answer_string(1, ":1.5");
    bus_signal("NameAcquired", ":1.5", NULL, NULL);
    answer_string(3, shell);
    answer_u32(4, request_result);
    if (request_result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) bus_signal("NameAcquired", "org.gesturemap.Focus", NULL, NULL);
}

static int open_seed(const char *dir, const char *name, unsigned char control) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    out = fopen(path, "wb");
    if (!out) return 0;
    fputc(control, out);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    const char *dir = argv[1];
    dbus_uint32_t u = 4242;
    double d = 17;
    dbus_int64_t x = -5;

    if (!open_seed(dir, "focus", 0)) return 1;
    greeting(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER);
    focus(shell, "firefox", "Mozilla Firefox", DBUS_TYPE_UINT32, &u);
    focus(shell, "org.gnome.Evince", "paper.pdf", DBUS_TYPE_DOUBLE, &d);
    focus(shell, "", "", 0, NULL);
    focus(shell, "foot", "~", DBUS_TYPE_INT64, &x);
    windows(shell, "[{\"id\":\"firefox\",\"title\":\"Mozilla Firefox\",\"pid\":4242,\"focused\":true},{\"id\":\"foot\",\"title\":\"~\",\"pid\":7,\"focused\":false}]");
    fclose(out);

    if (!open_seed(dir, "spoofed", 7)) return 1;
    greeting(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER);
    focus(":1.9", "evil", "Evil", DBUS_TYPE_UINT32, &u);
    windows(":1.9", "[]");
    bus_signal("NameLost", "org.gesturemap.Focus", NULL, NULL);
    DBusMessage *forged = dbus_message_new_signal(DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS, "NameOwnerChanged");
    const char *a = "org.gnome.Shell", *b = shell, *c = ":1.9";
    dbus_message_append_args(forged, DBUS_TYPE_STRING, &a, DBUS_TYPE_STRING, &b, DBUS_TYPE_STRING, &c, DBUS_TYPE_INVALID);
    emit(forged, ":1.9");
    bus_signal("NameOwnerChanged", "org.gnome.Shell", shell, ":1.3");
    focus(":1.3", "firefox", "Mozilla Firefox", DBUS_TYPE_UINT32, &u);
    fclose(out);

    if (!open_seed(dir, "queued", 3)) return 1;
    greeting(DBUS_REQUEST_NAME_REPLY_IN_QUEUE);
    answer_string(5, ":1.7");
    answer_u32(6, 1234);
    bus_signal("NameAcquired", "org.gesturemap.Focus", NULL, NULL);
    emit(reply_to(3, 1), DBUS_SERVICE_DBUS);
    fclose(out);

    if (!open_seed(dir, "bad-calls", 1)) return 1;
    greeting(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER);
    DBusMessage *m = call("FocusChanged");
    DBusMessageIter it, sub;
    const char *id = "firefox";
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &id);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &id);
    dbus_message_iter_open_container(&it, DBUS_TYPE_VARIANT, "u", &sub);
    dbus_message_iter_append_basic(&sub, DBUS_TYPE_UINT32, &u);
    dbus_message_iter_close_container(&it, &sub);
    emit(m, shell);
    m = call("WindowsChanged");
    dbus_message_append_args(m, DBUS_TYPE_UINT32, &u, DBUS_TYPE_INVALID);
    emit(m, shell);
    emit(dbus_message_new_method_call("org.gesturemap.Focus", "/org/gesturemap/Focus", DBUS_INTERFACE_INTROSPECTABLE, "Introspect"), ":1.9");
    emit(dbus_message_new_method_call("org.gesturemap.Focus", "/", DBUS_INTERFACE_PEER, "Ping"), ":1.9");
    emit(dbus_message_new_method_call("org.gesturemap.Focus", "/", "org.example", "Other"), ":1.9");
    windows(shell, "[[[[[[1]]]]]]");
    fclose(out);
    return 0;
}
