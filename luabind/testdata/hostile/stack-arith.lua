-- expect: error
-- shown: hostile.lua:4: C stack overflow
-- __add adding its operands again: a Go level each time.
local a = setmetatable({}, {__add = function(x, y) return x + y end})
return { name = "Hostile", run = function()
  return a + 1
end }
