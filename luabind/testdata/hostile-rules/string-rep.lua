-- want: rules.lua:3:
-- A string bomb in setup.
return { setup = function() local s = string.rep("x", 1e10) end, turns = function() end, resolve = function() end }
