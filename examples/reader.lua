-- Page turning that works in every program: two fingers left for the next
-- page, right for the previous one, as the key each program reads. In any
-- other program (or with no app source) the gesture is a JSON line on stdout.
-- `gesturemap apps --watch` shows the ids to put in `app`. Try it without a desktop:
--   gesturemap synth "2-finger swipe left" | gesturemap run --dry-run --app org.pwmt.zathura --rules examples/reader.lua
--
-- `app` is a Lua pattern (or a list of them) for the application's id: the X11
-- WM_CLASS class or the Wayland app_id. Letters match in either case, and a
-- pattern is found anywhere in the id, so "evince" serves both Evince on X11
-- and org.gnome.Evince on Wayland. A rule for the focused program wins over the
-- general rule at the end, wherever it is written.

local programs = {
  -- Browsers: forward and back in the history (a paged site, a PDF in a tab).
  { app = { "firefox", "chromium", "chrome", "brave", "vivaldi", "epiphany" }, next = "alt+Right", prev = "alt+Left" },
  -- PDF viewers: Evince, Papers (its successor) and Okular turn pages with PageDown/PageUp.
  { app = { "evince", "papers", "okular" }, next = "PageDown", prev = "PageUp" },
  -- Zathura's own page keys: J and K (capitals, so with shift).
  { app = "zathura", next = "shift+j", prev = "shift+k" },
  -- Slide decks: LibreOffice Impress ("-" is a pattern operator, hence "%-").
  { app = "libreoffice%-impress", next = "Right", prev = "Left" },
  -- E-book readers: Foliate and calibre's viewer turn pages with the arrows.
  { app = { "foliate", "calibre" }, next = "Right", prev = "Left" },
}

for _, program in ipairs(programs) do
  on("2-finger swipe left", function(g) key(program.next) end, { app = program.app, description = "next page" })
  on("2-finger swipe right", function(g) key(program.prev) end, { app = program.app, description = "previous page" })
end

on("2-finger swipe left", function(g) emit("next_page", { app = g.app and g.app.id }) end)
on("2-finger swipe right", function(g) emit("prev_page", { app = g.app and g.app.id }) end)
