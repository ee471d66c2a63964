#!/usr/bin/python3
# Drives `gesturemap serve` the way a phone would: Debian's chromium, headless,
# over its DevTools protocol (Input.dispatchTouchEvent with several touch
# points), and a bare WebSocket client for what no browser page sends (floods,
# malformed messages). Started by Tests/gesturemapTests/ServeBrowserTests.swift;
# also runnable by hand.
#
# usage: scripts/serve-browser.py SCENARIO GESTUREMAP [--screenshot FILE]
#   swipe       a two-finger swipe left on the page -> the rule's action on stdout;
#               prints the latency from the page's touchend to the action, and RSS
#   refusals    missing or wrong token -> 403 with an empty body, page and WebSocket;
#               a second page beyond --max-clients is refused
#   closed-tab  two fingers down, the tab closed -> touches cancelled, no action
#   hidden-page a swipe's movement, the page hidden before the lift -> no action
#   flood       a client flooding messages is cut off, memory stays flat, and a
#               page after it still works; a malformed message is reported once
#   tls         --cert/--key with a certificate made here: 403 and 200 over HTTPS,
#               a swipe over WSS from a client and from chromium; plain HTTP to it fails
# Prints "ok: ..." lines and "FAIL: ..." lines, exits 0 when all passed, 77 when
# chromium is not there (the test then skips, saying so), 1 otherwise.
# Every process it starts (gesturemap, chromium) is stopped by its PID.
import base64, contextlib, json, os, re, select, shutil, signal, socket, ssl, struct, subprocess, sys, tempfile, time, urllib.error, urllib.request

RULES = """
on({ kind = "swipe", fingers = 2, direction = "left" }, function(g)
  emit("next_slide", { device = g.device, fingers = g.fingers })
end, { device = "^phone " })
on("two-finger swipe right", function(g) emit("previous_slide") end)
on("long press", function(g) emit("laser") end)
on("two-finger long press", function(g) emit("laser2") end)
"""

failures = 0
started = []


def ok(text):
    print("ok: " + text, flush=True)


def fail(text):
    global failures
    failures += 1
    print("FAIL: " + text, flush=True)


def check(condition, text):
    (ok if condition else fail)(text)
    return condition


# ------------------------------------------------------------ WebSocket client
class WebSocket:
    """The client half of RFC 6455, enough for DevTools and for gesturemap."""

    def __init__(self, host, port, path, tls=False):
        self.sock = socket.create_connection((host, port), timeout=10)
        if tls:
            self.sock = UNVERIFIED.wrap_socket(self.sock, server_hostname=host)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        self.buffer = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""

    def send(self, text, opcode=1):
        payload = text.encode() if isinstance(text, str) else text
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _need(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk

    def receive(self):
        """(opcode, payload) of the next frame."""
        self._need(2)
        opcode, n = self.buffer[0] & 15, self.buffer[1] & 127
        offset = 2
        if n == 126:
            self._need(4)
            n, offset = struct.unpack(">H", self.buffer[2:4])[0], 4
        elif n == 127:
            self._need(10)
            n, offset = struct.unpack(">Q", self.buffer[2:10])[0], 10
        self._need(offset + n)
        payload = self.buffer[offset:offset + n]
        self.buffer = self.buffer[offset + n:]
        return opcode, payload

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# The certificate made for the test is its own: nothing to verify it against.
UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE

# ------------------------------------------------------------------ processes
class Serve:
    """gesturemap serve on the loopback interface, its stdout and stderr read as they come."""

    def __init__(self, gesturemap, rules_path, *extra):
        self.proc = subprocess.Popen([gesturemap, "serve", "--rules", rules_path, "--listen", "127.0.0.1:0", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        started.append(self.proc)
        self.out, self.err = b"", b""
        self.url = None
        deadline = time.monotonic() + 20
        while self.url is None and time.monotonic() < deadline and self.proc.poll() is None:
            self.pump(0.2)
            found = re.search(rb"https?://127\.0\.0\.1:\d+/\?k=[0-9a-f]{32}", self.err)
            if found:
                self.url = found.group(0).decode()
        if self.url is None:
            raise RuntimeError("serve printed no URL: " + self.err.decode(errors="replace"))
        self.port = int(re.search(r":(\d+)/", self.url).group(1))
        self.token = self.url.rsplit("=", 1)[1]

    def pump(self, timeout):
        streams = [s for s in (self.proc.stdout, self.proc.stderr) if s]
        ready, _, _ = select.select(streams, [], [], timeout)
        for s in ready:
            data = os.read(s.fileno(), 65536)
            if s is self.proc.stdout:
                self.out += data
            else:
                self.err += data

    def wait_for(self, pattern, stream="out", timeout=5.0):
        """The first match of `pattern` (bytes) in stdout or stderr, and when it was seen."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.out if stream == "out" else self.err)
            if found:
                return found, time.monotonic()
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            self.pump(min(left, 0.05))

    def settle(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.pump(deadline - time.monotonic())

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """Headless chromium with a phone's screen and touch, driven over DevTools."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="gesturemap-chromium-")
        self.proc = subprocess.Popen([find_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu",
                                      "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                                      f"--ignore-certificate-errors", f"--user-data-dir={self.profile}", "--remote-debugging-port=0", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        started.append(self.proc)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not os.path.exists(port_file) or len(open(port_file).read().split("\n")) < 2:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        port, path = open(port_file).read().split("\n")[:2]
        self.ws = WebSocket("127.0.0.1", int(port), path)
        self.next_id = 0
        self.events = []

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            _, payload = self.ws.receive()
            reply = json.loads(payload)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def open_phone_tab(self, url):
        """A tab the size of a phone (390x844 CSS px, 3 device px each) with touch, at `url`."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}, session)
        self.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}, session)
        self.call("Page.navigate", {"url": url}, session)
        return Tab(self, target, session)

    def stop(self):
        self.ws.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    def __init__(self, browser, target, session):
        self.browser, self.target, self.session = browser, target, session

    def evaluate(self, expression):
        result = self.browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        return result.get("result", {}).get("value")

    def status(self):
        return self.evaluate("document.getElementById('status') ? document.getElementById('status').textContent : ''") or ""

    def wait_status(self, prefix, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status().startswith(prefix):
                return True
            time.sleep(0.05)
        return False

    def touch(self, kind, points, at=None):
        """One touch event; `at` (seconds since the epoch) dates it, so its
        timeStamp on the page does not depend on how fast DevTools is."""
        params = {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]}
        if at is not None:
            params["timestamp"] = at
        self.browser.call("Input.dispatchTouchEvent", params, self.session)

    def dated_stroke(self, start, dx, dy, steps, spacing, end):
        """Fingers at `start` move by (dx, dy) in `steps`, each event dated
        `spacing` s after the last whatever DevTools takes; lifted if `end`."""
        at = time.time()
        self.touch("touchStart", start, at)
        for step in range(1, steps + 1):
            at += spacing
            time.sleep(max(0.0, at - time.time()))
            f = step / steps
            self.touch("touchMove", [(x + dx * f, y + dy * f) for x, y in start], at)
        if end:
            at += spacing
            time.sleep(max(0.0, at - time.time()))
            self.touch("touchEnd", [], at)

    def swipe(self, start, dx, dy, steps=6, interval=0.012, end=True):
        """Fingers at `start` move by (dx, dy) in `steps`; returns when touchEnd was dispatched."""
        began = time.monotonic()
        self.touch("touchStart", start)
        for step in range(1, steps + 1):
            time.sleep(interval)
            f = step / steps
            self.touch("touchMove", [(x + dx * f, y + dy * f) for x, y in start])
        time.sleep(interval)
        ended = time.monotonic()
        # On a loaded machine DevTools may be slow enough to make the swipe too slow to be one.
        self.last_duration = ended - began
        if end:
            self.touch("touchEnd", [])
        return ended

    def screenshot(self, path):
        data = self.browser.call("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.browser.call("Target.closeTarget", {"targetId": self.target})


def http_status(url, upgrade=False):
    """(status, body) of a GET, as a browser or a WebSocket client would send it."""
    headers = {}
    if upgrade:
        headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5, context=UNVERIFIED) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# ------------------------------------------------------------------ scenarios
@contextlib.contextmanager
def serve_and_browser(gm, rules):
    """gesturemap serve and a browser, both stopped after, whatever happened."""
    serve = Serve(gm, rules)
    browser = None
    try:
        browser = Browser()
        yield serve, browser
    finally:
        if browser:
            browser.stop()
        serve.stop()


def swipe(gm, rules, screenshot):
    with serve_and_browser(gm, rules) as (serve, browser):
        tab = browser.open_phone_tab(serve.url)
        if not check(tab.wait_status("connected"), "the page connects (status: %r)" % tab.status()):
            return
        serve.wait_for(rb"connected", "err")
        rss = serve.rss_kb()
        # The page's own touchend times (epoch ms), as the page stamps what it sends.
        tab.evaluate("window.__touchEnds = []; document.addEventListener('touchend', "
                     "(e) => window.__touchEnds.push(performance.timeOrigin + e.timeStamp), true); true")

        def since_touchend(seen):
            """ms from the page's last touchend to `seen` (time.monotonic()), on one clock."""
            end = tab.evaluate("window.__touchEnds[window.__touchEnds.length - 1]")
            return (seen + time.time() - time.monotonic()) * 1000 - end

        # Fast swipes, as people make them: decided while the fingers move.
        latencies = []
        for attempt in range(10):
            before = serve.out.count(b"next_slide")
            tab.swipe([(320, 380), (320, 470)], -300, 0)
            found, seen = serve.wait_for(rb"(?:.*next_slide.*\n){%d}" % (before + 1), timeout=10)
            if not found:
                fail("swipe %d (dispatched over %.0f ms): no next_slide on stdout; stderr: %s"
                     % (attempt, tab.last_duration * 1000, serve.err.decode(errors="replace")[-400:]))
                return
            latencies.append(since_touchend(seen))
            time.sleep(0.3)
        # Strokes decided at their lift (closed_tab's): the touchend is what decides them.
        at_lift = []
        for attempt in range(10):
            before = serve.out.count(b"next_slide")
            tab.dated_stroke(STROKE_FINGERS, -220, 0, 12, 0.04, end=True)
            found, seen = serve.wait_for(rb"(?:.*next_slide.*\n){%d}" % (before + 1), timeout=10)
            if found:
                at_lift.append(since_touchend(seen))
            time.sleep(0.3)
        check(len(at_lift) == 10, "each stroke decided at its lift is the rule's action (%d of 10)" % len(at_lift))
        line = [l for l in serve.out.decode().splitlines() if "next_slide" in l][0]
        action = json.loads(line)
        check(action.get("fingers") == 2 and str(action.get("device", "")).startswith("phone 127.0.0.1:"),
              "a two-finger swipe left on the page is the rule's action: " + line)
        shown = tab.evaluate("document.getElementById('gesture').textContent")
        check(shown == "two-finger swipe left", "the page shows the gesture's name (%r)" % shown)
        # The browser asks for nothing the page does not hold (no favicon.ico): no refusal for it.
        check(b"refused" not in serve.err, "a page loaded with the token causes no refusal (stderr: %r)" % serve.err[-300:])
        if screenshot:
            before = serve.out.count(b"next_slide")
            tab.swipe([(320, 380), (320, 470)], -300, 0)
            serve.wait_for(rb"(?:.*next_slide.*\n){%d}" % (before + 1), timeout=10)
            # As a person sees it: the name of the swipe just made, two fingers down for the next.
            tab.swipe([(250, 380), (250, 470)], -40, 0, steps=2, end=False)
            tab.screenshot(screenshot)
            tab.touch("touchEnd", [])
            ok("screenshot in " + screenshot)
        latencies.sort()
        print("figure: fast swipes, the page's touchend to the action read over loopback, ms: median %.1f, max %.1f "
              "(n=%d; negative: recognized before the fingers lifted)"
              % (latencies[len(latencies) // 2], latencies[-1], len(latencies)), flush=True)
        if at_lift:
            at_lift.sort()
            print("figure: swipes decided at the lift, the page's touchend to the action read over loopback, ms: "
                  "median %.1f, max %.1f (n=%d)" % (at_lift[len(at_lift) // 2], at_lift[-1], len(at_lift)), flush=True)
        print("figure: gesturemap RSS with one page connected: %d KiB" % rss, flush=True)


def refusals(gm, rules, _):
    with serve_and_browser(gm, rules) as (serve, browser):
        base = "http://127.0.0.1:%d" % serve.port
        for what, url, upgrade in [("the page without a token", base + "/", False),
                                   ("the page with a wrong token", base + "/?k=" + "0" * 32, False),
                                   ("the page with a token one digit short", serve.url[:-1], False),
                                   ("the WebSocket without a token", base + "/ws", True),
                                   ("the WebSocket with a wrong token", base + "/ws?k=" + "f" * 32, True),
                                   ("another path without a token", base + "/favicon.ico", False)]:
            status, body = http_status(url, upgrade)
            check(status == 403 and body == b"", "%s: 403 and nothing served (got %d, %d bytes)" % (what, status, len(body)))
        status, body = http_status(serve.url)
        check(status == 200 and b"<html" in body and not re.search(rb"src\s*=|href\s*=\s*\"(?!data:)|@import|url\(|https?://", body),
              "the page with the token: 200, self-contained (no src, no href but data:, no url() or address in it)")
        first = browser.open_phone_tab(serve.url)
        check(first.wait_status("connected"), "the first page connects")
        second = browser.open_phone_tab(serve.url)
        check(second.wait_status("not connected"), "a second page beyond --max-clients 1 is refused (its status: %r)" % second.status())
        found, _ = serve.wait_for(rb"refused a page from 127\.0\.0\.1:\d+: 1 already connected \(--max-clients\)", "err")
        check(found is not None, "the refusal is reported on stderr")
        check(first.status().startswith("connected"), "the first page stays connected")


# Two fingers moving 220 CSS px left in 12 steps 40 ms apart: a swipe decided at
# the lift, not while moving (30-50 ms apart are; 12 ms commits while moving,
# 60 ms is too slow at the lift). Ended rather than cancelled, touches left down
# this way would be a swipe: each refusal below has this control beside it.
STROKE_FINGERS = [(300, 380), (300, 470)]


def page_surface(ws):
    """What the page sends first: its size (a phone's, in CSS px) and devicePixelRatio."""
    ws.send(json.dumps({"type": "surface", "width": 390, "height": 844, "ratio": 3}))


def page_stroke(ws, t, lift, spacing=40, paced=False):
    """Two fingers 220 CSS px left in 12 steps as the page would send them over
    `ws`, dated from `t` (ms), `spacing` ms apart (and as far apart in real time
    when `paced`); lifted if `lift`."""
    ws.send(json.dumps({"type": "touchstart", "t": t, "touches": [[0, 300, 380], [1, 300, 470]]}))
    for step in range(1, 13):
        if paced:
            time.sleep(spacing / 1000)
        t += spacing
        ws.send(json.dumps({"type": "touchmove", "t": t, "touches": [[0, 300 - 18 * step, 380], [1, 300 - 18 * step, 470]]}))
    if lift:
        ws.send(json.dumps({"type": "touchend", "t": t + spacing, "touches": [[0, 84, 380], [1, 84, 470]]}))
    return t + spacing


def closed_tab(gm, rules, _):
    with serve_and_browser(gm, rules) as (serve, browser):
        tab = browser.open_phone_tab(serve.url)
        if not check(tab.wait_status("connected"), "the page connects"):
            return
        # The control: the stroke lifted is a swipe. Its events are dated, so
        # how fast DevTools goes does not change what it is.
        tab.dated_stroke(STROKE_FINGERS, -220, 0, 12, 0.04, end=True)
        found, _ = serve.wait_for(rb"next_slide", timeout=5)
        if not check(found is not None, "the stroke, lifted, is a swipe (the control)"):
            return
        serve.settle(0.3)
        serve.out = b""
        # The same stroke, and the tab goes before the fingers lift.
        tab.dated_stroke(STROKE_FINGERS, -220, 0, 12, 0.04, end=False)
        tab.close()
        found, _ = serve.wait_for(rb"phone 127\.0\.0\.1:\d+ went away", "err")
        check(found is not None, "the engine sees the page go")
        # Longer than a long press: a touch left down would make one up.
        serve.settle(1.5)
        check(serve.out == b"", "no gesture is made up from the touches the tab left (stdout: %r)" % serve.out)

        # A page that drops without a word (its browser killed: no touchcancel
        # comes): the engine cancels what was down when the connection goes.
        path = "/ws?k=" + serve.token
        control = WebSocket("127.0.0.1", serve.port, path)
        page_surface(control)
        page_stroke(control, 1000.0, lift=True)
        found, _ = serve.wait_for(rb"next_slide", timeout=5)
        check(found is not None, "over a WebSocket, the stroke lifted is a swipe (the control)")
        control.close()
        serve.settle(0.3)
        serve.out = b""
        dropped = WebSocket("127.0.0.1", serve.port, path)
        page_surface(dropped)
        page_stroke(dropped, 1000.0, lift=False)
        serve.settle(0.3)
        dropped.sock.close()
        deadline = time.monotonic() + 5
        while len(re.findall(rb"phone 127\.0\.0\.1:\d+ went away", serve.err)) < 3 and time.monotonic() < deadline:
            serve.pump(0.05)
        check(len(re.findall(rb"phone 127\.0\.0\.1:\d+ went away", serve.err)) == 3, "the engine sees the dropped connection go")
        serve.settle(1.5)
        check(serve.out == b"", "no gesture is made up from a connection dropped with fingers down (stdout: %r)" % serve.out)
        check(serve.proc.poll() is None, "the engine goes on")


def hidden_page(gm, rules, _):
    with serve_and_browser(gm, rules) as (serve, browser):
        tab = browser.open_phone_tab(serve.url)
        if not check(tab.wait_status("connected"), "the page connects"):
            return
        # A whole swipe's movement, then the page is hidden (the phone locked) before the fingers lift;
        # at this pace the swipe is decided at the lift (a faster one commits while moving).
        tab.swipe([(300, 380), (300, 470)], -220, 0, steps=12, end=False)
        tab.evaluate("Object.defineProperty(document, 'hidden', { value: true, configurable: true });"
                     "document.dispatchEvent(new Event('visibilitychange'))")
        tab.touch("touchEnd", [])
        serve.settle(1.0)
        check(b"next_slide" not in serve.out, "touches of a page that was hidden are cancelled: the lift after makes no swipe (stdout: %r)" % serve.out)
        tab.evaluate("Object.defineProperty(document, 'hidden', { value: false, configurable: true })")
        tab.swipe([(320, 380), (320, 470)], -300, 0)
        found, _ = serve.wait_for(rb"next_slide", timeout=10)
        check(found is not None, "the page works again once shown")


def page_swipe_messages(ws, token_time=1000.0):
    """A two-finger swipe left as the page would send it, over `ws`: fast
    enough (12 ms a step) to be decided while it moves."""
    page_surface(ws)
    page_stroke(ws, token_time, lift=True, spacing=12, paced=True)


def flood(gm, rules, _):
    serve = Serve(gm, rules)
    try:
        path = "/ws?k=" + serve.token
        # A malformed message: reported once, the connection closed, the engine goes on.
        bad = WebSocket("127.0.0.1", serve.port, path)
        check(bad.status == 101, "the WebSocket opens with the token")
        bad.send("{not json")
        bad.send("{\"type\":\"nonsense\"}")
        try:
            opcode, payload = bad.receive()
            check(opcode == 8 and payload[:2] == b"\x03\xf0", "a malformed message closes the connection (1008)")
        except (ConnectionError, OSError):
            fail("the server closed without a close frame")
        bad.close()
        found, _ = serve.wait_for(rb"phone 127\.0\.0\.1:\d+: not JSON[^\n]*; closed the connection\n", "err")
        check(found is not None, "the malformed message is reported with what was wrong")
        serve.settle(0.3)
        check(serve.err.count(b"closed the connection") == 1, "reported once, though two bad messages were sent")

        # Sustained traffic just under the caps: 400 messages a second of 4 KB
        # each (a touch moving, padded with JSON whitespace) for 4 s, 6 MB in all.
        # A server keeping what it read (a buffer never compacted, the messages
        # themselves) grows by as much; one that keeps nothing, by none.
        steady = WebSocket("127.0.0.1", serve.port, path)
        page_surface(steady)
        steady.send(json.dumps({"type": "touchstart", "t": 10.0, "touches": [[7, 10, 10]]}))
        serve.settle(0.3)
        rss_steady = serve.rss_kb()
        sent_bytes, t, began = 0, 10.0, time.monotonic()
        for second in range(4):
            for k in range(400):
                t += 2.5
                move = json.dumps({"type": "touchmove", "t": t, "touches": [[7, 10 + (k % 50), 10]]})
                move += " " * (4000 - len(move))
                steady.send(move)
                sent_bytes += len(move)
                serve.pump(0)
            time.sleep(max(0.0, began + second + 1 - time.monotonic()))
        steady.send(json.dumps({"type": "touchend", "t": t + 2.5, "touches": [[7, 10, 10]]}))
        serve.settle(0.5)
        rss_after_steady = serve.rss_kb()
        check(b"sent more than" not in serve.err, "traffic under the caps is taken (4 s at 400 messages a second)")
        check(rss_after_steady - rss_steady < 4096,
              "memory stays flat under %d MB of traffic within the caps (RSS %d KiB before, %d KiB after)"
              % (sent_bytes >> 20, rss_steady, rss_after_steady))
        steady.close()

        # A flood: far over the rate cap, as fast as the socket takes it.
        flooder = WebSocket("127.0.0.1", serve.port, path)
        page_surface(flooder)
        serve.settle(0.2)
        rss_before = serve.rss_kb()
        message = json.dumps({"type": "touchmove", "t": 5.0, "touches": [[7, 10, 10]]})
        sent, started_at = 0, time.monotonic()
        try:
            while time.monotonic() - started_at < 3 and sent < 200000:
                flooder.send(message)
                sent += 1
        except OSError:
            pass
        flooder.close()
        found, _ = serve.wait_for(rb"sent more than \d+ messages a second; closed the connection", "err")
        check(found is not None, "a flood of %d messages is cut off at the rate cap" % sent)
        serve.settle(0.3)
        rss_after = serve.rss_kb()
        # The connection is cut within a second, so this is a figure, not a check:
        # the check is the steady traffic's above.
        print("figure: flood of %d messages; RSS %d KiB before, %d KiB after" % (sent, rss_before, rss_after), flush=True)

        # Not stalled: a page after it still turns a swipe into the action, at once.
        page = WebSocket("127.0.0.1", serve.port, path)
        check(page.status == 101, "a page after the flood connects")
        page_swipe_messages(page)
        found, _ = serve.wait_for(rb"next_slide", timeout=5)
        check(found is not None, "its swipe is the rule's action within 5 s")
        opcode, payload = page.receive()
        check(opcode == 1 and json.loads(payload) == {"gesture": "two-finger swipe left"}, "the server names the gesture to the page: %r" % payload)
        page.close()
    finally:
        serve.stop()


def tls(gm, rules, _):
    directory = tempfile.mkdtemp(prefix="gesturemap-tls-")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                           "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                           "-addext", "subjectAltName=IP:127.0.0.1"], capture_output=True)
    if not check(made.returncode == 0, "a self-signed certificate from openssl req"):
        return
    serve = Serve(gm, rules, "--cert", cert, "--key", key)
    browser = None
    try:
        check(serve.url.startswith("https://"), "the URL is https: " + serve.url)
        base = "https://127.0.0.1:%d" % serve.port
        status, body = http_status(base + "/")
        check(status == 403 and body == b"", "over HTTPS without the token: 403 and nothing served")
        status, body = http_status(serve.url)
        check(status == 200 and b"<html" in body, "over HTTPS with the token: the page")
        # Plain HTTP to the TLS port: no answer, no harm.
        try:
            status, body = http_status("http://127.0.0.1:%d/?k=%s" % (serve.port, serve.token))
            fail("plain HTTP to the TLS port got an answer (%d)" % status)
        except (OSError, http_client_errors()) as e:
            ok("plain HTTP to the TLS port gets nothing (%s)" % type(e).__name__)
        page = WebSocket("127.0.0.1", serve.port, "/ws?k=" + serve.token, tls=True)
        check(page.status == 101, "the WebSocket opens over TLS")
        page_swipe_messages(page)
        found, _ = serve.wait_for(rb"next_slide", timeout=10)
        check(found is not None, "a swipe over WSS is the rule's action")
        opcode, payload = page.receive()
        check(opcode == 1 and b"two-finger swipe left" in payload, "the gesture's name comes back over WSS")
        page.close()
        serve.wait_for(rb"went away", "err")
        if find_chromium() is None:
            print("skip: chromium is not installed; the browser half of the TLS scenario did not run", flush=True)
            return
        browser = Browser()
        tab = browser.open_phone_tab(serve.url)
        if check(tab.wait_status("connected"), "chromium's page connects over WSS (status: %r)" % tab.status()):
            before = serve.out.count(b"next_slide")
            tab.swipe([(320, 380), (320, 470)], -300, 0)
            found, _ = serve.wait_for(rb"(?:.*next_slide.*\n){%d}" % (before + 1), timeout=10)
            check(found is not None, "a swipe in chromium over HTTPS is the rule's action")
    finally:
        if browser:
            browser.stop()
        serve.stop()
        shutil.rmtree(directory, ignore_errors=True)


def http_client_errors():
    import http.client
    return http.client.HTTPException


SCENARIOS = {"swipe": swipe, "refusals": refusals, "closed-tab": closed_tab, "hidden-page": hidden_page, "flood": flood, "tls": tls}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in SCENARIOS:
        print(__doc__ if __doc__ else "usage: scripts/serve-browser.py SCENARIO GESTUREMAP", file=sys.stderr)
        print("scenarios: " + ", ".join(SCENARIOS), file=sys.stderr)
        return 64
    scenario, gm = sys.argv[1], sys.argv[2]
    screenshot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    if scenario not in ("flood", "tls") and find_chromium() is None:
        print("skip: chromium is not installed (apt-get install chromium)", flush=True)
        return 77
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(RULES)
        rules = f.name
    try:
        SCENARIOS[scenario](gm, rules, screenshot)
    except Exception as e:  # a scenario that could not run is a failure, said plainly
        fail("%s: %s: %s" % (scenario, type(e).__name__, e))
    finally:
        for p in started:
            if p.poll() is None:
                p.kill()
                p.wait()
        os.unlink(rules)
    print("%d failed" % failures if failures else "all passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
