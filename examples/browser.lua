-- Browser navigation: two fingers right to go back, left to go forward; three
-- fingers left and right to change tabs.
--   gesturemap synth "2-finger swipe right" | gesturemap run --dry-run --rules examples/browser.lua

on("2-finger swipe right", function(g) key("alt+Left") end, { description = "back" })
on("2-finger swipe left", function(g) key("alt+Right") end, { description = "forward" })
on("3-finger swipe left", function(g) key("ctrl+Tab") end, { description = "next tab" })
on("3-finger swipe right", function(g) key("ctrl+shift+Tab") end, { description = "previous tab" })
