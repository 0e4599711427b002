-- want: rules.lua:3:
-- Recursion without end.
local function f(n) return 1 + f(n + 1) end
return { setup = function() return f(1) end, turns = function() end, resolve = function() end }
