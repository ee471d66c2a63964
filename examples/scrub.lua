-- Scrubbing through a book: drag with one finger, and every 15 mm of travel
-- turns one page, forward or back with the direction of the drag.
--   gesturemap synth "pan right" | gesturemap run --rules examples/scrub.lua

local page = 1

on("pan", function(g)
  if g.phase == "began" then
    emit("scrub_start", { page = page })
    return
  end
  -- g.step is +1 each 15 mm along the way the pan began, -1 each 15 mm back.
  local forward = (g.direction == "right" or g.direction == "down")
  local delta = forward and g.step or -g.step
  page = math.max(1, page + delta)
  emit("page", { page = page })
end, { ["repeat"] = 15 })
