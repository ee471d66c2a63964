-- Share the touchpad (and touchscreens) with the desktop: it keeps the pointer,
-- scrolling, taps and clicks; every touch of three fingers or more is
-- gesturemap's, so GNOME's or KWin's own three- and four-finger gestures do not
-- run over these. See docs/sharing.md.
-- Try it:  gesturemap run -v --rules examples/share.lua
-- (needs the udev rule for uinput; -v names each device's clone)
config{ share = true, claim_fingers = 3 }

on("3-finger swipe left", function(g) key("alt+Right") end)      -- forward
on("3-finger swipe right", function(g) key("alt+Left") end)      -- back
on("3-finger swipe up", function(g) key("super") end)            -- the overview
on("4-finger swipe left", function(g) key("ctrl+alt+Right") end) -- next workspace
on("4-finger swipe right", function(g) key("ctrl+alt+Left") end) -- previous workspace
-- A single gesture can be claimed alone, on a touchscreen's edge for instance:
on("edge swipe from right", function(g) key("super+a") end, { claim = true })
