-- expect: error
-- shown: C stack overflow
-- __tostring calling tostring on its value again: the builtin calls it
-- from Go, a Go level each time (no position: Lua 5.1 gives none inside a
-- builtin).
local a = setmetatable({}, {__tostring = function(x) return tostring(x) end})
return { name = "Hostile", run = function()
  return tostring(a)
end }
