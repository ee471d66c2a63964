-- Mouse strokes, a drawn circle and a rocker, as Easystroke drew them: hold
-- the right button and draw left to go back, right to go forward, a circle to
-- open the context menu; hold the left button and click the right one to
-- reopen the last closed tab. The circle is taught: mouse.shapes.jsonl beside
-- this file holds one drawn with a mouse (gesturemap shape add circle
-- RECORDING --any-direction --shapes examples/mouse.shapes.jsonl), which
-- replaces the built-in circle for these rules alone. A right click, and a
-- drag no rule takes, still reach the desktop; what a rule takes reaches it
-- as no button at all. See docs/mouse.md.
-- Try it:  gesturemap run -v --rules examples/mouse.lua
-- (needs the udev rule for uinput; -v names each mouse's clone and says what
-- became of each stroke)
config{ share_mice = true }

on({ kind = "stroke", direction = "left" }, function(g) key("alt+Left") end, { description = "back" })
on({ kind = "stroke", direction = "right" }, function(g) key("alt+Right") end, { description = "forward" })
on({ kind = "shape", button = "right", name = "circle" }, function(g) key("Menu") end, { description = "menu" })
-- The rocker holds every left press until it is let go, moves or rests
-- 250 ms (it may still become a rocker): a left click reaches the desktop at
-- its release. Leave this rule out if that is felt.
on({ kind = "chord", button = "left", press = "right" }, function(g) key("ctrl+shift+t") end, { description = "undo close tab" })
