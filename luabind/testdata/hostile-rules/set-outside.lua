-- want: rules.lua:2:
return { setup = function(g) g.set(1e9, -3, 0, "unit") end, turns = function() end, resolve = function() end }
