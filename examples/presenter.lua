-- Your phone as the presenter's remote: run
--   gesturemap serve --rules examples/presenter.lua
-- and open the URL it prints (or scan its QR code) on the phone.
-- Swipe left for the next slide, right for the previous one (one or two
-- fingers); a two-finger tap blanks the screen (b, as LibreOffice Impress,
-- PowerPoint and reveal.js read it); a long press toggles the laser pointer
-- (l in Google Slides; PowerPoint's is ctrl+l: change the key to suit).
-- Keys go through a virtual keyboard (/dev/uinput). Try it without one:
--   gesturemap synth "swipe left" "two-finger tap" | gesturemap run --dry-run --rules examples/presenter.lua

on({ kind = "swipe", fingers = "any", direction = "left" }, function(g) key("Right") end, { description = "next slide" })
on({ kind = "swipe", fingers = "any", direction = "right" }, function(g) key("Left") end, { description = "previous slide" })
on("two-finger tap", function(g) key("b") end, { description = "blank the screen" })
on("long press", function(g) key("l") end, { description = "laser pointer" })
