-- knock: two quick one-finger taps, then a two-finger tap, as on a door.
-- Written against the frame docs/lua-api.md defines: one frame per instant,
-- f.touches holding every contact down and those lifting, f.fingers counting
-- them the same way, and a recognizer that fails seeing that frame again
-- after its reset (so a far tap starts the count again).
--
--   gesturemap run --rules examples/knock.lua

-- example: knock
local QUICK = 0.25 -- s a press may last and still be a tap
local GAP = 0.4    -- s from one tap's lift to the next press
local NEAR = 20    -- mm from the last tap, or the count starts again

recognizer("knock", {
  frame = function(r, f)
    local landed, down = nil, 0
    for _, touch in ipairs(f.touches) do
      if touch.phase == "began" then landed = landed or touch end
      if touch.phase ~= "ended" and touch.phase ~= "cancelled" then down = down + 1 end
    end
    if landed and not r.press then
      local last = r.last
      if last and math.sqrt((landed.x - last.x) ^ 2 + (landed.y - last.y) ^ 2) > NEAR then
        return r:fail("too far from the last tap")
      end
      r.taps = r.taps or 0
      r.press = { x = landed.x, y = landed.y, fingers = 0 }
      r:deadline(f.t + QUICK)
    end
    if not r.press then return end
    r.press.fingers = math.max(r.press.fingers, f.fingers)
    if down > 0 then return end
    -- Every finger of the press lifted in this frame.
    local press = r.press
    r.press = nil
    if press.fingers == 1 and r.taps < 2 then
      r.taps, r.last = r.taps + 1, press
      r:deadline(f.t + GAP)
    elseif press.fingers == 2 and r.taps == 2 then
      r:ended({ knocks = 3 })
    else
      r:fail(press.fingers .. " fingers after " .. r.taps .. " taps")
    end
  end,
  timeout = function(r, t)
    r:fail(r.press and "held too long for a tap" or "too slow for a knock")
  end,
  reset = function(r) r.taps, r.press, r.last = nil, nil, nil end,
})
on("knock", function(g) emit("knock") end, { name = "knock" })
-- Taps wait for the knock to fail; a two-finger tap ending a knock loses the
-- tie to it (the knock began first), so it needs no wait.
on("tap", function(g) emit("tap") end, { requires_failure_of = "knock" })
on("2-finger tap", function(g) emit("two-finger tap") end)
