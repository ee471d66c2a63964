#!/usr/bin/python3
# A program on a session bus, for the D-Bus tests and scripts/bench-dbus: the
# desktop's shell when it owns org.gnome.Shell or org.kde.KWin, a spoofer when
# it owns nothing, a squatter when it owns org.gesturemap.Focus.
#
# usage: scripts/dbus-peer.py ADDRESS [NAME ...]
# Prints "ready UNIQUE_NAME", then reads one JSON command a line on stdin and
# answers each with one line:
#   {"op": "call", "member": M, "sig": S, "args": [...], "count": N}  -> ok | error NAME: TEXT
#       ({"fd": 1} as an argument passes a descriptor of /dev/null)
#   {"op": "flood", "size": BYTES, "count": N, "member": M}  -> sent (no replies asked)
#   {"op": "own", "name": N, "flags": F} / {"op": "release", "name": N}  -> the bus's answer
#   {"op": "ping"}  -> ok once gesturemap has read everything sent before it
#   {"op": "await"}  -> ok once org.gesturemap.Focus has an owner (within 10 s)
#   {"op": "signal", "member": M, "sig": S, "args": [...]}  -> sent: a signal that claims
#       to be the bus's own (org.freedesktop.DBus), sent to gesturemap's unique name
import json, os, sys, time
import dbus, dbus.lowlevel
bus = dbus.bus.BusConnection(sys.argv[1])
DEST, PATH, IFACE = "org.gesturemap.Focus", "/org/gesturemap/Focus", "org.gesturemap.Focus1"
# As gnome-shell owns org.gnome.Shell: others may replace it, and it then waits in the queue.
for name in sys.argv[2:]:
    bus.request_name(name, dbus.bus.NAME_FLAG_ALLOW_REPLACEMENT)
print("ready " + bus.get_unique_name(), flush=True)

def value(a):
    if isinstance(a, dict) and "fd" in a:
        fd = os.open("/dev/null", os.O_RDONLY)
        try: return dbus.types.UnixFd(fd)
        finally: os.close(fd)
    return a

def answer(f):
    try:
        f()
        return "ok"
    except dbus.exceptions.DBusException as e:
        return "error " + (e.get_dbus_name() or "?") + ": " + " ".join(str(x) for x in e.args)

for line in sys.stdin:
    c = json.loads(line)
    op = c["op"]
    if op == "call":
        args = [value(a) for a in c.get("args", [])]
        iface = c.get("interface", IFACE)
        out = ""
        for _ in range(c.get("count", 1)):
            out = answer(lambda: bus.call_blocking(DEST, PATH, iface, c["member"], c.get("sig", ""), args, timeout=10))
        print(out, flush=True)
    elif op == "flood":
        # No reply asked: what a hostile sender does, without waiting.
        text = "[" + "x" * max(0, c["size"] - 2) + "]"
        for _ in range(c["count"]):
            m = dbus.lowlevel.MethodCallMessage(DEST, PATH, IFACE, c.get("member", "WindowsChanged"))
            m.append(text, signature="s")
            m.set_no_reply(True)
            bus.send_message(m)
        bus.flush()
        print("sent", flush=True)
    elif op == "own":
        print(str(bus.request_name(c["name"], c.get("flags", 0))), flush=True)
    elif op == "release":
        print(str(bus.release_name(c["name"])), flush=True)
    elif op == "ping":
        print(answer(lambda: bus.call_blocking(DEST, PATH, "org.freedesktop.DBus.Peer", "Ping", "", [], timeout=30)), flush=True)
    elif op == "await":
        deadline = time.monotonic() + 10
        while not bus.name_has_owner(DEST) and time.monotonic() < deadline:
            time.sleep(0.01)
        print("ok" if bus.name_has_owner(DEST) else "no owner", flush=True)
    elif op == "signal":
        m = dbus.lowlevel.SignalMessage("/org/freedesktop/DBus", "org.freedesktop.DBus", c["member"])
        m.set_destination(bus.get_name_owner(DEST))
        m.append(*c["args"], signature=c["sig"])
        bus.send_message(m)
        bus.flush()
        print("sent", flush=True)
