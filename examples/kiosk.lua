-- A kiosk: a swipe in from the left edge goes home; a long press opens an
-- admin mode that lasts 30 seconds, in which a three-finger tap opens the
-- settings. Replace the commands with your own.
--   gesturemap synth "edge swipe from left" "long press" "3-finger tap" | gesturemap run --dry-run --rules examples/kiosk.lua

local HOME = { "kiosk-home" }
local SETTINGS = { "kiosk-settings" }
local ADMIN_SECONDS = 30
local back_to_normal

on("edge swipe from left", function(g)
  exec(HOME, { timeout = 10 })
  emit("home")
end)

on("long press", function(g)
  mode("admin")
  emit("admin", { seconds = ADMIN_SECONDS })
  if back_to_normal then back_to_normal:cancel() end
  back_to_normal = after(ADMIN_SECONDS, function()
    mode("default")
    emit("normal")
  end)
end, { mode = "default" })

on("3-finger tap", function(g)
  exec(SETTINGS, { timeout = 10 })
  emit("settings")
end, { mode = "admin" })
