-- expect: error
-- shown: hostile.lua:4: C stack overflow
-- __lt comparing its operands again: a Go level each time.
local mt = {__lt = function(x, y) return x < y end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
return { name = "Hostile", run = function()
  return a < b
end }
