-- expect: error
-- shown: hostile.lua:6: C stack overflow
-- __concat joining its operands again: the sandbox's concatenation calls
-- it from Go, a Go level each time; the position is that of the `..`, as
-- in Lua 5.1.
local a = setmetatable({}, {__concat = function(x, y) return x .. y end})
return { name = "Hostile", run = function()
  return a .. "x"
end }
