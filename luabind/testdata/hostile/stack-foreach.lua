-- expect: error
-- shown: C stack overflow
-- A table.foreach function that calls foreach again with itself: a Go
-- level each time.
local function e(k, v) return table.foreach({1}, e) end
return { name = "Hostile", run = function()
  return table.foreach({1}, e)
end }
