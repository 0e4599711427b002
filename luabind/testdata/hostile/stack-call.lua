-- expect: error
-- shown: hostile.lua:5: stack overflow
-- __call calling its table again: Lua 5.1 and gopher-lua both run it as an
-- ordinary call, without a C level, so the Lua call stack fills.
local c = setmetatable({}, {__call = function(self) local r = self() return r end})
return { name = "Hostile", run = function()
  return c()
end }
