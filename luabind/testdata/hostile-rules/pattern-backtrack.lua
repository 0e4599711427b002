-- want: rules.lua:3:
-- Exponential backtracking in a Lua pattern.
return { setup = function() return string.find(string.rep("a", 30), string.rep("a*", 30) .. "b") end, turns = function() end, resolve = function() end }
