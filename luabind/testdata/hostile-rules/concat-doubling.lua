-- want: rules.lua:3:
-- Doubles a string until something gives.
return { setup = function() local s = "x"; for i = 1, 60 do s = s .. s end end, turns = function() end, resolve = function() end }
