#!/usr/bin/env python3
"""What sharing a device with the desktop costs: run inside the guest that
`scripts/kernel-test --bench` boots (it needs /dev/uinput and real devices).

Plays one finger moving at 120 Hz into a touchscreen made with evemu-device,
and measures, for each packet, the time from writing it into the device to the
kernel's stamp on the same packet read back:
  - from the device itself, with no gesturemap (the baseline: what the
    desktop's own reading costs), and
  - from the clone of `gesturemap run --share` (claims on: claim_fingers = 3),
    the landing hold-back over.
The difference of the two is the latency sharing adds. CPU is gesturemap's
(user + system, from /proc) per second of the motion, with --share and without
it (reading the same device beside the desktop) in the same run.

Then a mouse shared with `run --share-mouse`, a right-button stroke bound so
that every right press is held: for each plain right click, from writing the
release into the mouse to the kernel's stamp on the clone's release (the gate
writes the held press and the release then); and each packet of motion with no
button down, as the touch packets above. Both against the mouse read directly.

Then the virtual pointer: a rule moves it by each change of the
one-finger pan, and each pointer packet's kernel stamp, read back from the
pointer's own node, is compared with the time its touch packet was written:
the delay from a touch frame to its pointer event, against the same baseline.

usage: bench-share.py GESTUREMAP_BINARY [SECONDS]
       bench-share.py --calibrate   (the calibration loop alone, on any machine)
Prints "bench-share: ..." lines and one JSON line "bench-share-json: {...}".
"""
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import tempfile
import time

EVENT = struct.Struct("llHHi")
EVIOCSCLOCKID = 0x400445A0
EV_SYN, EV_KEY, EV_REL, EV_ABS, EV_MSC = 0, 1, 2, 3, 4
BTN_RIGHT = 0x111
MOUSE = """# EVEMU 1.3
N: gesturemap bench mouse
I: 0003 1234 5678 0111
P: 00 00 00 00 00 00 00 00
B: 00 17 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 07 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 03 01 00 00 00 00 00 00
B: 03 00 00 00 00 00 00 00 00
B: 04 10 00 00 00 00 00 00 00
"""
MOUSE_RULES = 'on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)\n'
PANEL = """# EVEMU 1.3
N: gesturemap bench panel
I: 0018 0000 0000 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
A: 00 0 4095 0 0 16
A: 01 0 2303 0 0 16
A: 2f 0 9 0 0 0
A: 35 0 4095 0 0 16
A: 36 0 2303 0 0 16
A: 39 0 65535 0 0 0
"""
RULES = 'config{ claim_fingers = 3 }\non("3-finger swipe left", function(g) emit("claimed") end)\n'
POINTER_RULES = """local lx, ly = 0, 0
local function follow(g) pointer.move(g.dx - lx, g.dy - ly); lx, ly = g.dx, g.dy end
on("pan", { began = function(g) lx, ly = 0, 0; follow(g) end, changed = follow })
"""


def say(text):
    print("bench-share: " + text, flush=True)


def make_device(directory, description=PANEL, name="panel.desc"):
    desc = os.path.join(directory, name)
    with open(desc, "w") as f:
        f.write(description)
    proc = subprocess.Popen(["evemu-device", desc], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    node = line.rsplit(": ", 1)[1].strip()
    subprocess.run(["udevadm", "settle", "--timeout=20"], check=False)
    return proc, node


def write(fd, events):
    os.write(fd, b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events + [(EV_SYN, 0, 0)]))


def read_packet(fd, timeout):
    """The kernel's stamp (seconds) of the next SYN_REPORT, or None."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        buffer += os.read(fd, EVENT.size * 64)
        while len(buffer) >= EVENT.size:
            sec, usec, etype, code, _ = EVENT.unpack(buffer[:EVENT.size])
            buffer = buffer[EVENT.size:]
            if etype == EV_SYN and code == 0:
                return sec + usec / 1e6


def read_release(fd, timeout):
    """The kernel's stamp (seconds) of the next packet that lets the right button go, or None."""
    deadline = time.monotonic() + timeout
    buffer = b""
    released = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        buffer += os.read(fd, EVENT.size * 64)
        while len(buffer) >= EVENT.size:
            sec, usec, etype, code, value = EVENT.unpack(buffer[:EVENT.size])
            buffer = buffer[EVENT.size:]
            if etype == EV_KEY and code == BTN_RIGHT and value == 0:
                released = True
            if etype == EV_SYN and code == 0 and released:
                return sec + usec / 1e6


def clicks(source_fd, reader_fd, count):
    """`count` right clicks, 40 ms held, 100 ms apart; from writing each release
    to its stamp as read back (s)."""
    latencies = []
    for _ in range(count):
        write(source_fd, [(EV_MSC, 4, 0x90002), (EV_KEY, BTN_RIGHT, 1)])
        time.sleep(0.04)
        written = time.clock_gettime(time.CLOCK_MONOTONIC)
        write(source_fd, [(EV_MSC, 4, 0x90002), (EV_KEY, BTN_RIGHT, 0)])
        stamp = read_release(reader_fd, 1.0)
        if stamp is not None:
            latencies.append(stamp - written)
        time.sleep(0.06)
    return latencies


def moves(source_fd, reader_fd, seconds):
    """The mouse moving at 125 Hz, no button down; from writing each packet to its stamp read back (s)."""
    latencies = []
    next_tick = time.monotonic()
    for i in range(int(seconds * 125)):
        written = time.clock_gettime(time.CLOCK_MONOTONIC)
        write(source_fd, [(EV_REL, 0, 3 if i % 2 else -3)])
        stamp = read_packet(reader_fd, 1.0)
        if stamp is not None:
            latencies.append(stamp - written)
        next_tick += 1 / 125
        time.sleep(max(0, next_tick - time.monotonic()))
    return latencies


def mouse(binary, directory, seconds):
    """A plain click's release and unclaimed motion, read directly and through
    the clone of `run --share-mouse`; None when the mouse could not be shared."""
    device, node = make_device(directory, MOUSE, "mouse.desc")
    source = os.open(node, os.O_WRONLY)
    count = int(seconds * 10)
    try:
        direct = open_reader(node)
        click_base, move_base = clicks(source, direct, count), moves(source, direct, seconds)
        os.close(direct)
        shared, clone = start_engine(binary, directory, node, MOUSE_RULES, ["--share-mouse"],
                                     lambda line: line.rsplit(" through ", 1)[1].strip() if " through " in line else None)
        if clone is None:
            say("gesturemap did not share the mouse: " + shared.stderr.read()[-500:])
            shared.kill()
            return None
        reader = open_reader(clone)
        click_through, move_through = clicks(source, reader, count), moves(source, reader, seconds)
        os.close(reader)
        shared.terminate()
        shared.wait()
    finally:
        os.close(source)
        device.terminate()
    return {
        "mouse_clicks": len(click_through),
        "click_direct_p50_ms": percentile(click_base, 50) * 1000,
        "click_direct_p99_ms": percentile(click_base, 99) * 1000,
        "click_clone_p50_ms": percentile(click_through, 50) * 1000,
        "click_clone_p99_ms": percentile(click_through, 99) * 1000,
        "click_added_p50_ms": (percentile(click_through, 50) - percentile(click_base, 50)) * 1000,
        "click_added_p99_ms": (percentile(click_through, 99) - percentile(click_base, 99)) * 1000,
        "mouse_moves": len(move_through),
        "move_direct_p50_ms": percentile(move_base, 50) * 1000,
        "move_direct_p99_ms": percentile(move_base, 99) * 1000,
        "move_added_p50_ms": (percentile(move_through, 50) - percentile(move_base, 50)) * 1000,
        "move_added_p99_ms": (percentile(move_through, 99) - percentile(move_base, 99)) * 1000,
    }


def cpu_seconds(pid, which=(11, 12)):
    """User and system time (fields 14 and 15 of /proc/PID/stat), or those asked for."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in which) / os.sysconf("SC_CLK_TCK")


def play(source_fd, reader_fd, seconds, x0, timeout=1.0):
    """One finger down, then moves at 120 Hz for `seconds`; the latencies (s).
    A packet that brings nothing within `timeout` (the pan not begun yet) counts none."""
    write(source_fd, [(EV_ABS, 0x2F, 0), (EV_ABS, 0x39, 500), (EV_ABS, 0x35, x0), (EV_ABS, 0x36, 1000), (EV_KEY, 0x14A, 1)])
    # The landing hold-back and any claim decision are over before measuring.
    time.sleep(0.3)
    while reader_fd is not None and read_packet(reader_fd, 0.05) is not None:
        pass
    latencies = []
    period = 1 / 120
    x = x0
    next_tick = time.monotonic()
    for _ in range(int(seconds * 120)):
        x = x + 3 if x < 3500 else x0
        written = time.clock_gettime(time.CLOCK_MONOTONIC)
        write(source_fd, [(EV_ABS, 0x35, x)])
        if reader_fd is not None:
            stamp = read_packet(reader_fd, timeout)
            if stamp is not None:
                latencies.append(stamp - written)
        next_tick += period
        time.sleep(max(0, next_tick - time.monotonic()))
    write(source_fd, [(EV_ABS, 0x39, -1), (EV_KEY, 0x14A, 0)])
    return latencies


def calibration():
    """Seconds for a fixed CPU-bound loop: how fast this machine is, to compare with another."""
    start = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i * i % 7
    return time.process_time() - start


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def open_reader(node):
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
    return fd


def start_engine(binary, directory, node, rules, arguments, ready):
    """`gesturemap run -v` with these rules on the panel; waits until `ready(line)`
    gives a value for a line of its stderr (or it ends, or 30 s pass): that value."""
    path = os.path.join(directory, "rules.lua")
    with open(path, "w") as f:
        f.write(rules)
    proc = subprocess.Popen([binary, "run", "-v", "--rules", path] + arguments + [node],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = None
    deadline = time.monotonic() + 30
    while found is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        found = ready(line)
    time.sleep(1.0)
    return proc, found


def engine(binary, directory, node, share):
    """Sharing, the clone's node; or reading beside the desktop, True once it reads."""
    def ready(line):
        if share:
            return line.rsplit(" through ", 1)[1].strip() if " through " in line else None
        return True if line.startswith("gesturemap: reading ") else None
    return start_engine(binary, directory, node, RULES, ["--share"] if share else [], ready)


def pointer_engine(binary, directory, node):
    """`gesturemap run` with POINTER_RULES on the panel; its virtual pointer's node,
    once it also reads the panel."""
    pointer = []
    def ready(line):
        if "made the virtual pointer " in line:
            pointer.append(line.split("made the virtual pointer ", 1)[1].split(" ", 1)[0])
        return pointer[0] if pointer and line.startswith("gesturemap: reading ") else None
    return start_engine(binary, directory, node, POINTER_RULES, [], ready)


def main():
    binary = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    directory = tempfile.mkdtemp()
    device, node = make_device(directory)
    source = os.open(node, os.O_WRONLY)
    try:
        # The baseline: the device read directly, as the desktop reads it without gesturemap.
        direct = open_reader(node)
        baseline = play(source, direct, seconds, 100)
        os.close(direct)

        shared, clone = engine(binary, directory, node, share=True)
        if clone is None:
            say("gesturemap did not share the device: " + shared.stderr.read()[-500:])
            shared.kill()
            return 1
        reader = open_reader(clone)
        before = (time.monotonic(), cpu_seconds(shared.pid), cpu_seconds(shared.pid, (12,)))
        through = play(source, reader, seconds, 100)
        after = (time.monotonic(), cpu_seconds(shared.pid), cpu_seconds(shared.pid, (12,)))
        share_cpu = (after[1] - before[1]) / (after[0] - before[0])
        share_system = (after[2] - before[2]) / (after[0] - before[0])
        os.close(reader)
        shared.terminate()
        shared.wait()

        beside, _ = engine(binary, directory, node, share=False)
        before = (time.monotonic(), cpu_seconds(beside.pid), cpu_seconds(beside.pid, (12,)))
        play(source, None, seconds, 100)
        after = (time.monotonic(), cpu_seconds(beside.pid), cpu_seconds(beside.pid, (12,)))
        beside_cpu = (after[1] - before[1]) / (after[0] - before[0])
        beside_system = (after[2] - before[2]) / (after[0] - before[0])
        beside.terminate()
        beside.wait()

        # The virtual pointer: each touch packet of the pan to the pointer packet it makes.
        moving, pointer = pointer_engine(binary, directory, node)
        if pointer is None:
            say("gesturemap made no virtual pointer: " + moving.stderr.read()[-500:])
            moving.kill()
            return 1
        reader = open_reader(pointer)
        before = (time.monotonic(), cpu_seconds(moving.pid))
        moved = play(source, reader, seconds, 100, timeout=0.05)
        after = (time.monotonic(), cpu_seconds(moving.pid))
        pointer_cpu = (after[1] - before[1]) / (after[0] - before[0])
        os.close(reader)
        moving.terminate()
        moving.wait()
    finally:
        os.close(source)
        device.terminate()
    mouse_result = mouse(binary, directory, seconds)
    if mouse_result is None:
        return 1

    result = {
        "packets": len(through),
        "direct_p50_ms": percentile(baseline, 50) * 1000,
        "direct_p99_ms": percentile(baseline, 99) * 1000,
        "clone_p50_ms": percentile(through, 50) * 1000,
        "clone_p99_ms": percentile(through, 99) * 1000,
        "added_p50_ms": (percentile(through, 50) - percentile(baseline, 50)) * 1000,
        "added_p99_ms": (percentile(through, 99) - percentile(baseline, 99)) * 1000,
        "cpu_share_percent": share_cpu * 100,
        "cpu_beside_percent": beside_cpu * 100,
        "cpu_share_system_percent": share_system * 100,
        "cpu_beside_system_percent": beside_system * 100,
        "pointer_packets": len(moved),
        "pointer_p50_ms": percentile(moved, 50) * 1000,
        "pointer_p99_ms": percentile(moved, 99) * 1000,
        "pointer_added_p50_ms": (percentile(moved, 50) - percentile(baseline, 50)) * 1000,
        "pointer_added_p99_ms": (percentile(moved, 99) - percentile(baseline, 99)) * 1000,
        "cpu_pointer_percent": pointer_cpu * 100,
        "calibration_s": calibration(),
    }
    result.update(mouse_result)
    say(f"{len(through)} packets of one finger at 120 Hz, {seconds:g} s")
    say(f"device read directly: p50 {result['direct_p50_ms']:.3f} ms, p99 {result['direct_p99_ms']:.3f} ms")
    say(f"through the clone:    p50 {result['clone_p50_ms']:.3f} ms, p99 {result['clone_p99_ms']:.3f} ms")
    say(f"added by sharing:     p50 {result['added_p50_ms']:.3f} ms, p99 {result['added_p99_ms']:.3f} ms")
    say(f"gesturemap CPU: {result['cpu_share_percent']:.2f}% of one core with --share ({result['cpu_share_system_percent']:.2f}% in the kernel), "
        f"{result['cpu_beside_percent']:.2f}% reading beside the desktop ({result['cpu_beside_system_percent']:.2f}% in the kernel): "
        f"{share_cpu / beside_cpu if beside_cpu else float('nan'):.2f}x")
    say(f"virtual pointer: {len(moved)} pointer packets from a one-finger pan; touch packet to pointer packet "
        f"p50 {result['pointer_p50_ms']:.3f} ms, p99 {result['pointer_p99_ms']:.3f} ms; beyond the device's own "
        f"p50 {result['pointer_added_p50_ms']:.3f} ms, p99 {result['pointer_added_p99_ms']:.3f} ms; CPU {result['cpu_pointer_percent']:.2f}% of one core")
    say(f"mouse, {result['mouse_clicks']} plain right clicks (a right-button stroke bound, so each press is held): release to the clone's release "
        f"p50 {result['click_clone_p50_ms']:.3f} ms, p99 {result['click_clone_p99_ms']:.3f} ms; read directly p50 {result['click_direct_p50_ms']:.3f} ms, "
        f"p99 {result['click_direct_p99_ms']:.3f} ms; added p50 {result['click_added_p50_ms']:.3f} ms, p99 {result['click_added_p99_ms']:.3f} ms")
    say(f"mouse, {result['mouse_moves']} packets of motion at 125 Hz, no button down: added p50 {result['move_added_p50_ms']:.3f} ms, "
        f"p99 {result['move_added_p99_ms']:.3f} ms (read directly p50 {result['move_direct_p50_ms']:.3f} ms, p99 {result['move_direct_p99_ms']:.3f} ms)")
    say(f"calibration: a fixed Python loop took {result['calibration_s']:.3f} s here (run it on a machine to scale these to it)")
    print("bench-share-json: " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--calibrate"]:
        print(f"{calibration():.3f}")
        sys.exit(0)
    sys.exit(main())
