-- E-reader paging: two fingers left for the next page, right for the previous,
-- a two-finger double tap to go back to the first page.
-- Try it:  gesturemap synth "two-finger swipe left" | gesturemap run --rules examples/pager.lua

local page, last_page = 1, 300

on("two-finger swipe left", function(g)
  if page < last_page then
    page = page + 1
    emit("next_page", { page = page })
  end
end)

on({ kind = "swipe", fingers = 2, direction = "right" }, function(g)
  if page > 1 then
    page = page - 1
    emit("prev_page", { page = page })
  end
end)

on("two-finger double tap", function(g)
  page = 1
  emit("first_page", { page = page })
end)
