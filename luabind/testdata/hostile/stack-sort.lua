-- expect: error
-- shown: C stack overflow
-- A table.sort comparator that sorts again with itself: a Go level each
-- time.
local function cmp(x, y) table.sort({2, 1}, cmp) return x < y end
return { name = "Hostile", run = function()
  table.sort({2, 1}, cmp)
end }
