-- want: rules.lua:2:
return { setup = function() return string.format("%99999d", 1) end, turns = function() end, resolve = function() end }
