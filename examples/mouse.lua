-- Mouse strokes, as Easystroke drew them: hold the right button and draw left
-- to go back, right to go forward. A right click, and a right drag no rule
-- takes, still reach the desktop; a stroke a rule takes reaches it as no
-- button at all. See docs/mouse.md.
-- Try it:  gesturemap run -v --rules examples/mouse.lua
-- (needs the udev rule for uinput; -v names each mouse's clone and says what
-- became of each stroke)
config{ share_mice = true }

on({ kind = "stroke", direction = "left" }, function(g) key("alt+Left") end, { description = "back" })
on({ kind = "stroke", direction = "right" }, function(g) key("alt+Right") end, { description = "forward" })
