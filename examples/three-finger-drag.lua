-- Three-finger drag, as macOS has it: three fingers moving together hold the
-- left button down and move the pointer; lifting them lets go, a moment later,
-- so that fingers put back down at once carry on the same drag (to move a
-- window further than the touchpad is wide). With share on, the desktop does
-- not also scroll or swipe with those fingers. See docs/lua-api.md, "pointer".
-- Try it:  gesturemap run -v --rules examples/three-finger-drag.lua
-- Or see the pointer events it would send:
--          gesturemap synth "3-finger pan right" | gesturemap run -n --rules examples/three-finger-drag.lua
config{ share = true, pointer_gain = 15 }

-- Seconds the button stays down after the fingers lift (0: none).
local linger = 0.5
local last_dx, last_dy = 0, 0

local function follow(g)
  pointer.move(g.dx - last_dx, g.dy - last_dy)
  last_dx, last_dy = g.dx, g.dy
end

on("3-finger pan", {
  began = function(g)
    last_dx, last_dy = 0, 0
    pointer.press("left")   -- a drag resumed within the linger keeps its button
    follow(g)
  end,
  changed = follow,
  ended = function(g)
    follow(g)
    pointer.release("left", { after = linger })
  end,
  cancelled = function(g) pointer.release("left") end,
}, { claim = true })
