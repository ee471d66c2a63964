-- Slides: swipe left for the next slide, right for the previous one; a
-- three-finger tap blanks the screen (b, as most presentation programs read it);
-- a long press leaves the show (Escape).
-- Keys go through a virtual keyboard (/dev/uinput), so this works under X11 and
-- Wayland alike. Try it without one:
--   gesturemap synth "swipe left" "3-finger tap" | gesturemap run --dry-run --rules examples/presentation.lua

on("swipe left", function(g) key("PageDown") end, { description = "next slide" })
on("swipe right", function(g) key("PageUp") end, { description = "previous slide" })
on("3-finger tap", function(g) key("b") end, { description = "blank the screen" })
on("long press", function(g) key("Escape") end, { description = "leave the show" })
