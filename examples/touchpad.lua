-- A touchpad's everyday gestures, used by the author-tools examples in the
-- README (gesturemap explain, draw and test on real recordings).
-- Try it:  gesturemap synth "two-finger tap" | gesturemap run --rules examples/touchpad.lua

on("two-finger swipe left", function(g) emit("back") end)
on("two-finger swipe right", function(g) emit("forward") end)
on("two-finger tap", function(g) emit("context_menu") end)
on("pinch out", function(g) emit("zoom_in") end)
on("pinch in", function(g) emit("zoom_out") end)
