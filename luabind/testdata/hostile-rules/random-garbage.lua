-- want: rules.lua:2:
return { setup = function(g) g.random(10, 1) end, turns = function() end, resolve = function() end }
