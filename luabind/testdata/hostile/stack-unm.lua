-- expect: error
-- shown: hostile.lua:4: C stack overflow
-- __unm negating its operand again: a Go level each time.
local a = setmetatable({}, {__unm = function(x) return -x end})
return { name = "Hostile", run = function()
  return -a
end }
