/// The page a phone opens: the whole screen is the touch surface. It sends
/// its size and every touch event over a WebSocket to the server it came
/// from, and shows the gesture the server names. Self-contained: no fonts,
/// scripts or images from anywhere (the response's CSP forbids them too).
public enum TouchPage {
    public static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no, viewport-fit=cover">
    <meta name="theme-color" content="#111">
    <title>gesturemap</title>
    <link rel="icon" href="data:,">
    <style>
    html, body { margin: 0; height: 100%; overflow: hidden; background: #111; color: #eee;
      font-family: system-ui, sans-serif; -webkit-user-select: none; user-select: none;
      -webkit-touch-callout: none; overscroll-behavior: none; }
    #surface { position: fixed; inset: 0; touch-action: none; }
    #status { position: fixed; left: 0; right: 0; bottom: 0; padding: 12px; text-align: center;
      font-size: 14px; color: #999; pointer-events: none; }
    #gesture { position: fixed; left: 0; right: 0; top: 40%; text-align: center; font-size: 32px;
      font-weight: 600; opacity: 0; transition: opacity 0.4s; pointer-events: none; }
    #gesture.shown { opacity: 1; transition: none; }
    .dot { position: fixed; width: 44px; height: 44px; margin: -22px 0 0 -22px; border-radius: 50%;
      background: rgba(120, 180, 255, 0.35); pointer-events: none; }
    </style>
    </head>
    <body>
    <div id="surface"></div>
    <div id="gesture"></div>
    <div id="status">connecting…</div>
    <script>
    "use strict";
    const statusLine = document.getElementById("status");
    const gesture = document.getElementById("gesture");
    const surface = document.getElementById("surface");
    const key = new URLSearchParams(location.search).get("k") || "";
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + "/ws?k=" + encodeURIComponent(key));
    const dots = new Map();
    let hideTimer = 0;

    function send(message) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    }
    function sendSurface() {
      send({ type: "surface", width: window.innerWidth, height: window.innerHeight, ratio: window.devicePixelRatio || 1 });
    }
    function showDots(event) {
      for (const t of event.changedTouches) {
        let dot = dots.get(t.identifier);
        if (event.type === "touchend" || event.type === "touchcancel") {
          if (dot) { dot.remove(); dots.delete(t.identifier); }
          continue;
        }
        if (!dot) { dot = document.createElement("div"); dot.className = "dot"; document.body.appendChild(dot); dots.set(t.identifier, dot); }
        dot.style.left = t.clientX + "px";
        dot.style.top = t.clientY + "px";
      }
    }
    const down = new Set();
    function onTouch(event) {
      event.preventDefault();
      const touches = [];
      for (const t of event.changedTouches) {
        touches.push([t.identifier, t.clientX, t.clientY]);
        if (event.type === "touchstart") down.add(t.identifier);
        if (event.type === "touchend" || event.type === "touchcancel") down.delete(t.identifier);
      }
      send({ type: event.type, t: event.timeStamp, touches: touches });
      showDots(event);
    }
    // A page hidden (screen locked, another app) may never see its touches end: end them here.
    function cancelAll() {
      if (down.size === 0) return;
      send({ type: "touchcancel", t: performance.now(), touches: Array.from(down, (id) => [id, 0, 0]) });
      down.clear();
      for (const dot of dots.values()) dot.remove();
      dots.clear();
    }
    document.addEventListener("visibilitychange", () => { if (document.hidden) cancelAll(); });
    window.addEventListener("pagehide", cancelAll);
    for (const type of ["touchstart", "touchmove", "touchend", "touchcancel"]) {
      surface.addEventListener(type, onTouch, { passive: false });
    }
    window.addEventListener("resize", sendSurface);
    let opened = false;
    socket.addEventListener("open", () => { opened = true; statusLine.textContent = "connected: touch anywhere"; sendSurface(); });
    socket.addEventListener("close", () => {
      statusLine.textContent = opened
        ? "disconnected: reload the page to connect again"
        : "not connected: another page is using gesturemap, or it stopped";
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (typeof message.gesture === "string") {
        gesture.textContent = message.gesture;
        gesture.classList.add("shown");
        clearTimeout(hideTimer);
        hideTimer = setTimeout(() => gesture.classList.remove("shown"), 1200);
      }
    });
    </script>
    </body>
    </html>
    """
}
