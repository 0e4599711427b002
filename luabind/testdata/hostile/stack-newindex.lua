-- expect: error
-- shown: hostile.lua:4: C stack overflow
-- __newindex storing into its own table: a Go level each time.
local t = setmetatable({}, {__newindex = function(t, k, v) t[k] = v end})
return { name = "Hostile", run = function()
  t.x = 1
end }
