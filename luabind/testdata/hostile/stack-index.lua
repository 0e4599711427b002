-- expect: error
-- shown: hostile.lua:7: C stack overflow
-- An __index metamethod that indexes its own table again: each level runs
-- in a main loop of its own on the Go stack. Lua 5.1 stops it at 200 C
-- levels, and so does the sandbox (luabind/cstack.go), whatever
-- limits.call_depth is.
local t = setmetatable({}, {__index = function(t, k) return t[k] end})
return { name = "Hostile", run = function()
  return t.anything
end }
