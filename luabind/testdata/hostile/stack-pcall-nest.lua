-- expect: error
-- shown: C stack overflow
-- Recursion through pcall, raising what it caught: every protected call is
-- a Go level, so the recursion stops at Lua 5.1's C stack limit (200), not
-- at limits.call_depth.
local function f() local ok, e = pcall(f) error(e, 0) end
return { name = "Hostile", run = function()
  f()
end }
